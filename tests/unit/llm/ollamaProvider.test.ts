import { afterAll, describe, expect, test } from 'vitest'
import { createOllamaProvider, listOllamaModels } from '../../../api/llm/ollamaProvider'
import type { ChatMessage } from '../../../api/llm/provider'
import { startFakeOllama, unusedUrl } from '../../helpers/fakeOllama'
import { deltasOf, failureOf, hi, providerContract } from './providerContract'

const MODEL = 'llama3.2:1b'
const fake = startFakeOllama({ models: [MODEL] })
afterAll(() => fake.stop())

const ollama = (overrides: Partial<Parameters<typeof createOllamaProvider>[0]> = {}) =>
  createOllamaProvider({ host: fake.url, model: MODEL, ...overrides })

providerContract(fake, ollama)

describe('the Ollama request', () => {
  test('carries the conversation, keep_alive and the call options', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'how are you?' },
    ]
    await deltasOf(ollama({ keepAlive: '10m' }), messages, { temperature: 0.2, maxTokens: 64 })
    expect(fake.chats()[0].body).toMatchObject({
      model: MODEL,
      stream: true,
      keep_alive: '10m',
      options: { temperature: 0.2, num_predict: 64 },
      messages,
    })
  })

  test('token usage comes from the final line', async () => {
    fake.reply({ chunks: ['a', 'b', 'c'] })
    let usage
    await deltasOf(ollama(), hi, { onUsage: (u) => (usage = u) })
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 3 })
  })

  test('images travel as raw base64 strings on their message', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255])
    const reply = await deltasOf(ollama(), [{ role: 'user', content: 'look', images: [{ mimeType: 'image/png', data: png }] }])
    expect(reply.join('')).toBe('Reply to "look" with 1 image')
    expect(fake.chats()[0].body.messages[0].images).toEqual([Buffer.from(png).toString('base64')])
  })

  test('hosted Ollama gets the API key as a Bearer token; a refused key is a ModelFailure', async () => {
    const hosted = startFakeOllama({ models: [MODEL], apiKey: 'secret-key' })
    try {
      const provider = createOllamaProvider({ host: hosted.url, model: MODEL, apiKey: 'secret-key' })
      expect((await deltasOf(provider, hi)).join('')).toBe('Reply to "hi"')
      expect(hosted.chats()[0].headers.authorization).toBe('Bearer secret-key')

      const refused = await failureOf(() => deltasOf(createOllamaProvider({ host: hosted.url, model: MODEL, apiKey: 'wrong' }), hi))
      expect(refused.status).toBe(401)
      expect(refused.message).toContain('OLLAMA_API_KEY')
    } finally {
      hosted.stop()
    }
  })

  test('json sends the schema as format, describes it in the system message and returns the parsed object', async () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, mood: { enum: ['calm', 'tense'] }, steps: { type: 'array', items: { type: 'string' } } },
      required: ['title', 'mood', 'steps'],
    }
    fake.reply('{"title":"Plan","mood":"calm","steps":["walk","write"]}')
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You plan days.' },
      { role: 'user', content: 'plan my day' },
    ]
    expect(await ollama().json(messages, schema)).toEqual({ title: 'Plan', mood: 'calm', steps: ['walk', 'write'] })
    const { body } = fake.chats()[0]
    expect(body.format).toEqual(schema)
    expect(body.messages).toHaveLength(2)
    expect(body.messages[0].content).toContain('You plan days.')
    expect(body.messages[0].content).toContain(JSON.stringify(schema))

    fake.reply('{"title":"Plan","mood":"angry","steps":[]}')
    expect((await failureOf(() => ollama().json('plan', schema))).message).toContain('$.mood')
  })
})

describe('Ollama failures', () => {
  test('an unknown model names the model and how to get it', async () => {
    const error = await failureOf(() => deltasOf(ollama({ model: 'nope:7b' }), hi))
    expect(error.status).toBe(404)
    expect(error.message).toContain('model "nope:7b" not found')
    expect(error.message).toContain('ollama pull nope:7b')
  })

  test('an unreachable host', async () => {
    const host = unusedUrl()
    expect((await failureOf(() => deltasOf(ollama({ host }), hi))).message).toContain(`Cannot reach Ollama at ${host}`)
  })
})

test('listOllamaModels lists pulled models, or null when Ollama does not answer in time', async () => {
  expect(await listOllamaModels({ host: fake.url }, 800)).toEqual([MODEL])
  expect(await listOllamaModels({ host: unusedUrl() }, 800)).toBeNull()
})
