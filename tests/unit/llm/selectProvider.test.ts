import { afterAll, beforeEach, expect, test } from 'vitest'
import { describeProvider, selectProvider, type ProviderConfig } from '../../../api/llm/selectProvider'
import { startFakeOllama, unusedUrl } from '../../helpers/fakeOllama'
import { startFakeOpenAI } from '../../helpers/fakeOpenAI'

const ollamaFake = startFakeOllama({ models: ['qwen2.5:3b', 'llama3.2:latest'] })
const openaiFake = startFakeOpenAI({ models: ['gpt-fake-mini'] })
afterAll(() => {
  ollamaFake.stop()
  openaiFake.stop()
})
beforeEach(() => {
  ollamaFake.requests.length = 0
  openaiFake.requests.length = 0
})

const config = (overrides: Partial<ProviderConfig> = {}): ProviderConfig => ({
  provider: 'auto',
  ollama: { host: ollamaFake.url, model: 'llama3.2' },
  openai: {},
  ...overrides,
})

async function select(cfg: ProviderConfig) {
  const notices: string[] = []
  const provider = await selectProvider(cfg, { notice: (m) => notices.push(m) })
  return { provider, notices, described: describeProvider(provider) }
}

test('auto: a reachable Ollama with the configured model', async () => {
  const { provider, notices, described } = await select(config())
  expect(described).toEqual({ kind: 'ollama', model: 'llama3.2:latest' })
  expect(notices).toEqual([])
  expect(await provider.complete('hi')).toBe('Reply to "hi"')
})

test('auto: a reachable Ollama without the configured model uses its first model and says so', async () => {
  const { described, notices } = await select(config({ ollama: { host: ollamaFake.url, model: 'mistral' } }))
  expect(described).toEqual({ kind: 'ollama', model: 'qwen2.5:3b' })
  expect(notices[0]).toContain('no model "mistral"; using "qwen2.5:3b"')
})

test('auto: the probe carries the API key of a hosted Ollama', async () => {
  const hosted = startFakeOllama({ models: ['gpt-oss:20b'], apiKey: 'k' })
  try {
    const { described } = await select(config({ ollama: { host: hosted.url, model: 'gpt-oss:20b', apiKey: 'k' } }))
    expect(described).toEqual({ kind: 'ollama', model: 'gpt-oss:20b' })
  } finally {
    hosted.stop()
  }
})

test('auto: an unreachable Ollama, or one with no models, means offline, and says so', async () => {
  const unreachable = await select(config({ ollama: { host: unusedUrl(), model: 'llama3.2' } }))
  expect(unreachable.described).toEqual({ kind: 'offline', model: null })
  expect(unreachable.notices[0]).toContain('did not answer')

  const empty = startFakeOllama({ models: [] })
  try {
    const none = await select(config({ ollama: { host: empty.url, model: 'llama3.2' } }))
    expect(none.described).toEqual({ kind: 'offline', model: null })
    expect(none.notices[0]).toContain('ollama pull llama3.2')
  } finally {
    empty.stop()
  }
})

test('auto: a configured OpenAI-compatible endpoint wins without probing Ollama', async () => {
  const { provider, described } = await select(config({ openai: { baseUrl: openaiFake.url, model: 'gpt-fake-mini' } }))
  expect(described).toEqual({ kind: 'openai', model: 'gpt-fake-mini' })
  expect(await provider.complete('hi')).toBe('Reply to "hi"')
  expect(ollamaFake.requests).toEqual([])
})

test('an explicit provider is used as configured, without probing', async () => {
  const openai = await select(config({ provider: 'openai', openai: { baseUrl: openaiFake.url, model: 'gpt-fake-mini' } }))
  expect(openai.described).toEqual({ kind: 'openai', model: 'gpt-fake-mini' })

  const ollama = await select(config({ provider: 'ollama', ollama: { host: unusedUrl(), model: 'llama3.2' } }))
  expect(ollama.described).toEqual({ kind: 'ollama', model: 'llama3.2' })

  const offline = await select(config({ provider: 'offline' }))
  expect(offline.described).toEqual({ kind: 'offline', model: null })
  expect(ollamaFake.requests).toEqual([])
})

test('provider openai without a model is a configuration error', async () => {
  await expect(selectProvider(config({ provider: 'openai', openai: { baseUrl: openaiFake.url } }))).rejects.toThrow('OPENAI_MODEL')
})
