// The fakes are shared with end-to-end tests, so the parts the providers do not exercise are checked here.
import { Ollama } from 'ollama'
import { afterAll, expect, test } from 'vitest'
import { startFakeOllama } from '../../helpers/fakeOllama'
import { startFakeOpenAI } from '../../helpers/fakeOpenAI'

const ollama = startFakeOllama({ models: ['llama3.2:1b'] })
const openai = startFakeOpenAI()
afterAll(() => {
  ollama.stop()
  openai.stop()
})

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

test('fake Ollama answers whole replies and lists its models as ollama-js expects', async () => {
  const client = new Ollama({ host: ollama.url })
  const reply = await client.chat({ model: 'llama3.2:1b', messages: [{ role: 'user', content: 'hello' }], stream: false })
  expect(reply).toMatchObject({ message: { role: 'assistant', content: 'Reply to "hello"' }, done: true, done_reason: 'stop' })
  const { models } = await client.list()
  expect(models.map((m) => m.name)).toEqual(['llama3.2:1b'])
  expect(ollama.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/chat', 'GET /api/tags'])
  expect(await ollama.requests[0].ended).toBe('completed')
})

test('queued replies are used once each, in order, before the standing one', async () => {
  ollama.queueReplies('first', { text: 'second' }, ({ lastUserText }) => `third for ${lastUserText}`)
  const client = new Ollama({ host: ollama.url })
  const answers: string[] = []
  for (let i = 0; i < 4; i++) {
    const reply = await client.chat({ model: 'llama3.2:1b', messages: [{ role: 'user', content: `q${i}` }], stream: false })
    answers.push(reply.message.content)
  }
  expect(answers).toEqual(['first', 'second', 'third for q2', 'Reply to "q3"'])
})

test('fake OpenAI answers whole replies, and JSON requests fit their schema by default', async () => {
  const whole = await post(`${openai.url}/v1/chat/completions`, { model: 'gpt-fake-mini', messages: [{ role: 'user', content: 'hello' }] })
  expect(await whole.json()).toMatchObject({
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Reply to "hello"' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
  })

  const schema = { type: 'object', properties: { answer: { type: 'string' }, sure: { type: 'boolean' } }, required: ['answer', 'sure'] }
  const structured = await post(`${openai.url}/v1/chat/completions`, {
    model: 'gpt-fake-mini',
    messages: [{ role: 'user', content: 'is it?' }],
    response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } },
  })
  const content = (await structured.json()).choices[0].message.content
  expect(JSON.parse(content)).toEqual({ answer: 'Reply to "is it?"', sure: false })
})

test('fake OpenAI streams role, content, finish, usage and [DONE] as SSE', async () => {
  openai.reply({ chunks: ['Hi', '!'] })
  const response = await post(`${openai.url}/v1/chat/completions`, {
    model: 'gpt-fake-mini',
    messages: [{ role: 'user', content: 'hello' }],
    stream: true,
    stream_options: { include_usage: true },
  })
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  const events = (await response.text()).split('\n\n').filter(Boolean)
  expect(events.at(-1)).toBe('data: [DONE]')
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')))
  expect(chunks.map((c) => c.choices[0]?.delta ?? c.usage)).toEqual([
    { role: 'assistant', content: '' },
    { content: 'Hi' },
    { content: '!' },
    {},
    { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  ])
  expect(chunks[3].choices[0].finish_reason).toBe('stop')
})
