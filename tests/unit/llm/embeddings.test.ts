import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFakeOllama, unusedUrl, type FakeModelServer } from '../../helpers/fakeOllama'
import { startFakeOpenAI } from '../../helpers/fakeOpenAI'
import { createOllamaProvider } from '../../../api/llm/ollamaProvider'
import { createOpenAIProvider } from '../../../api/llm/openaiProvider'
import { ModelFailure } from '../../../api/llm/provider'

const vectorOf = (text: string) => [text.length, text.split(' ').length, 1]
let ollama: FakeModelServer
let openai: FakeModelServer
let uneven: FakeModelServer

beforeAll(() => {
  ollama = startFakeOllama({ embed: vectorOf })
  openai = startFakeOpenAI({ embed: vectorOf })
  uneven = startFakeOllama({ embed: (text) => (text === 'short' ? [1] : [1, 2]) })
})
afterAll(() => {
  ollama?.stop()
  openai?.stop()
  uneven?.stop()
})

describe('embeddings from the configured model', () => {
  test('none without an embedding model', () => {
    expect(createOllamaProvider({ host: ollama.url, model: 'llama3.2:1b' }).embed).toBeUndefined()
    expect(createOpenAIProvider({ baseUrl: openai.url, model: 'gpt-fake-mini' }).embed).toBeUndefined()
  })

  test('Ollama /api/embed: one vector per text, in order, with the embedding model', async () => {
    const embed = createOllamaProvider({ host: ollama.url, model: 'llama3.2:1b', embedModel: 'nomic-embed-text' }).embed!
    expect(embed.model).toBe('nomic-embed-text')
    expect(await embed(['a b c', 'hello'])).toEqual([vectorOf('a b c'), vectorOf('hello')])
    expect(ollama.requests.at(-1)!.body).toMatchObject({ model: 'nomic-embed-text', input: ['a b c', 'hello'] })
    expect(await embed([])).toEqual([])
  })

  test('OpenAI /v1/embeddings: vectors placed by their index', async () => {
    const embed = createOpenAIProvider({ baseUrl: openai.url, model: 'gpt-fake-mini', embedModel: 'text-embedding-3-small' }).embed!
    expect(await embed(['one two', 'three', 'four five six'])).toEqual([vectorOf('one two'), vectorOf('three'), vectorOf('four five six')])
    expect(openai.requests.at(-1)!.path).toBe('/v1/embeddings')
  })

  test('failures are ModelFailure: unreachable, no such endpoint, uneven vectors', async () => {
    await expect(createOllamaProvider({ host: unusedUrl(), model: 'x', embedModel: 'e' }).embed!(['hi'])).rejects.toBeInstanceOf(ModelFailure)
    await expect(createOpenAIProvider({ baseUrl: ollama.url, model: 'x', embedModel: 'e' }).embed!(['hi'])).rejects.toBeInstanceOf(ModelFailure)
    await expect(createOllamaProvider({ host: uneven.url, model: 'x', embedModel: 'e' }).embed!(['short', 'longer'])).rejects.toThrow(/uneven/)
  })
})
