import { afterAll, describe, expect, test } from 'vitest'
import { chatCompletionsUrl, createOpenAIProvider } from '../../../api/llm/openaiProvider'
import type { ChatMessage } from '../../../api/llm/provider'
import { unusedUrl } from '../../helpers/fakeOllama'
import { startFakeOpenAI } from '../../helpers/fakeOpenAI'
import { deltasOf, failureOf, hi, providerContract } from './providerContract'

const MODEL = 'gpt-fake-mini'
const KEY = 'sk-test'
const fake = startFakeOpenAI({ models: [MODEL], apiKey: KEY })
afterAll(() => fake.stop())

const openai = (overrides: Partial<Parameters<typeof createOpenAIProvider>[0]> = {}) =>
  createOpenAIProvider({ baseUrl: fake.url, apiKey: KEY, model: MODEL, ...overrides })

providerContract(fake, openai)

describe('the OpenAI-compatible request', () => {
  test('carries the key, the conversation, stream options and the call options', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'hi' },
    ]
    await deltasOf(openai(), messages, { temperature: 0.5, maxTokens: 100 })
    const [request] = fake.chats()
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.body).toEqual({
      model: MODEL,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.5,
      max_tokens: 100,
    })
  })

  test('token usage comes from the usage chunk', async () => {
    fake.reply({ chunks: ['a', 'b'] })
    let usage
    await deltasOf(openai(), hi, { onUsage: (u) => (usage = u) })
    expect(usage).toEqual({ promptTokens: 1, completionTokens: 2 })
  })

  test('base URLs work with or without /v1 and trailing slashes', async () => {
    expect(chatCompletionsUrl('https://api.example.com')).toBe('https://api.example.com/v1/chat/completions')
    expect(chatCompletionsUrl('https://api.example.com/v1/')).toBe('https://api.example.com/v1/chat/completions')
    expect(chatCompletionsUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1/chat/completions')
    expect(await openai({ baseUrl: `${fake.url}/v1/` }).complete('hi')).toBe('Reply to "hi"')
  })

  test('images travel as data-URL parts beside the text', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
    const reply = await deltasOf(openai(), [{ role: 'user', content: 'what is this?', images: [{ mimeType: 'image/jpeg', data: jpeg }] }])
    expect(reply.join('')).toBe('Reply to "what is this?" with 1 image')
    expect(fake.chats()[0].body.messages[0].content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}` } },
    ])
  })
})

describe('OpenAI-compatible failures', () => {
  test('an unknown model, with the server message', async () => {
    const error = await failureOf(() => deltasOf(openai({ model: 'gpt-nope' }), hi))
    expect(error.status).toBe(404)
    expect(error.message).toContain('The model `gpt-nope` does not exist')
  })

  test('a wrong API key', async () => {
    const error = await failureOf(() => deltasOf(openai({ apiKey: 'sk-wrong' }), hi))
    expect(error.status).toBe(401)
    expect(error.message).toContain('Incorrect API key')
  })

  test('an unreachable host', async () => {
    const baseUrl = unusedUrl()
    const error = await failureOf(() => deltasOf(openai({ baseUrl }), hi))
    expect(error.message).toContain(`Cannot reach the OpenAI-compatible endpoint ${baseUrl}/v1/chat/completions`)
  })
})

describe('json', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, closeness: { type: 'integer', minimum: 1, maximum: 5 } },
    required: ['name', 'closeness'],
  }

  test('asks for json_schema structured output and returns the parsed object', async () => {
    fake.reply('{"name":"Mei","closeness":4}')
    expect(await openai().json('Who is Mei?', schema)).toEqual({ name: 'Mei', closeness: 4 })
    expect(fake.chats()[0].body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'reply', schema, strict: false } })
  })

  test('falls back to JSON mode with the schema in the prompt where json_schema is not supported', async () => {
    const plain = startFakeOpenAI({ models: [MODEL], jsonSchema: false, reply: '```json\n{"name":"Mei","closeness":2}\n```' })
    try {
      const provider = createOpenAIProvider({ baseUrl: plain.url, model: MODEL })
      expect(await provider.json('Who is Mei?', schema)).toEqual({ name: 'Mei', closeness: 2 })
      const [rejected, retried] = plain.chats()
      expect(rejected.body.response_format.type).toBe('json_schema')
      expect(retried.body.response_format).toEqual({ type: 'json_object' })
      expect(retried.body.messages[0]).toMatchObject({ role: 'system' })
      expect(retried.body.messages[0].content).toContain(JSON.stringify(schema))
      expect(retried.headers.authorization).toBeUndefined()
    } finally {
      plain.stop()
    }
  })
})
