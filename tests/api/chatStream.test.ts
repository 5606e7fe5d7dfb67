import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { allEvents, memoryExtractionsIdle, NOW_TEXT, readEvents, startChat, type ChatSetup, type StreamEvent } from '../unit/chat/chatFixtures'

const MODEL = 'llama3.2:1b'
let offline: TestApp
let ollama: TestApp
let fake: FakeModelServer

beforeAll(async () => {
  fake = startFakeOllama({ models: [MODEL] })
  offline = await startTestApp()
  ollama = await startTestApp({}, { model: createOllamaProvider({ host: fake.url, model: MODEL }) })
})
// A memory extraction still running from the last test would take a reply the next test scripts.
beforeEach(() => memoryExtractionsIdle(ollama))
afterAll(async () => {
  await offline?.close()
  await ollama?.close()
  fake?.stop()
})

const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
)

async function upload(app: TestApp, cookie: string): Promise<string> {
  const form = new FormData()
  form.append('file', new File([PNG], 'a.png', { type: 'image/png' }))
  return (await app.json('POST', '/self/file', { cookie, form })).body.id
}

const chatRequest = (chat: ChatSetup, body: Record<string, unknown>, query = '', signal?: AbortSignal) =>
  new Request(`http://localhost/api/v1${chat.path}/chat${query}`, {
    method: 'POST',
    headers: { cookie: chat.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ currentDateTime: NOW_TEXT, ...body }),
    signal,
  })

const send = (app: TestApp, chat: ChatSetup, body: Record<string, unknown>, query = '') => app.app.handle(chatRequest(chat, body, query))

const deltaText = (events: StreamEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.t).join('')

async function storedMessages(app: TestApp, chat: ChatSetup) {
  return app.ctx.sql<{ role: string; text: string; status: string }[]>`
    select role, text, status from messages where conversation_id = ${chat.conversationId} order by created_at, id`
}

async function messageCount(app: TestApp, chat: ChatSetup) {
  const [row] = await app.ctx.sql<{ message_count: number }[]>`select message_count from users where id = ${chat.userId}`
  return row.message_count
}

describe('streaming with the offline provider', () => {
  test('start, deltas and done as server-sent events, with compression off and the reply saved', async () => {
    const chat = await startChat(offline)
    const res = await send(offline, chat, { text: 'I keep putting off the hard conversation with my manager' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform')
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    expect(res.headers.get('content-encoding')).toBeNull()

    const events = await allEvents(res)
    const [start] = events
    expect(start.event).toBe('start')
    expect(start.data).toEqual({
      userMessageId: expect.any(String),
      userMessage: {
        id: expect.any(String),
        role: 'USER',
        text: 'I keep putting off the hard conversation with my manager',
        createdAt: expect.any(String),
        files: [],
        help: null,
        sources: null,
        version: 1,
      },
      botMessageId: expect.any(String),
      messageLimit: { limit: 100, count: 1, resetAt: expect.any(String) },
      sources: { memories: [], people: [] },
      version: 1,
    })
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(1)
    expect(done.data).toEqual({ botMessageId: start.data.botMessageId, text: deltaText(events), help: null })
    // The offline companion answers the message without quoting it back.
    expect(done.data.text).not.toContain('I keep putting off the hard conversation')
    expect(done.data.text.trim()).toMatch(/\?$/)

    const polled = await offline.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${start.data.botMessageId}`, { cookie: chat.cookie })
    expect(polled.body).toEqual({ id: start.data.botMessageId, role: 'ASSISTANT', text: done.data.text, status: 'COMPLETE', help: null, sources: { memories: [], people: [] }, version: 1 })
    const page = await offline.json('GET', `/chatbots/conversations/${chat.conversationId}?messageDirection=asc`, { cookie: chat.cookie })
    expect(page.body.messages.map((m: any) => [m.id, m.role])).toEqual([
      [start.data.userMessageId, 'USER'],
      [start.data.botMessageId, 'ASSISTANT'],
    ])
    expect(page.body.characterId).toBe(chat.characterId)
  })

  test('?sse=false answers with plain JSON', async () => {
    const chat = await startChat(offline)
    const res = await send(offline, chat, { text: 'Help me plan a calmer morning routine' }, '?sse=false')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await res.json()
    expect(body).toEqual({
      newUserMessage: { id: expect.any(String), text: 'Help me plan a calmer morning routine', role: 'USER', createdAt: expect.any(String), files: [], help: null, sources: null, version: 1 },
      newChatbotMessage: {
        id: expect.any(String),
        text: expect.stringMatching(/\S.*\?$/s),
        role: 'ASSISTANT',
        createdAt: expect.any(String),
        files: [],
        help: null,
        sources: { memories: [], people: [] },
        version: 1,
      },
      messageLimit: { limit: 100, count: 1, resetAt: expect.any(String) },
    })
  })

  test('refusals come as JSON errors before any stream, and store nothing', async () => {
    const chat = await startChat(offline)
    const other = await startChat(offline)
    const training = await startChat(offline, { ready: false })
    const cases: [ChatSetup, Record<string, unknown>, number, string][] = [
      [training, { text: 'hi' }, 409, 'CharacterNotReady'],
      [{ ...chat, cookie: other.cookie }, { text: 'hi' }, 404, 'NotFound'],
      [{ ...chat, path: `/chatbots/conversations/${chat.conversationId}/character/${other.characterId}` }, { text: 'hi' }, 404, 'NotFound'],
      [{ ...chat, path: `/chatbots/conversations/${other.conversationId}/character/${chat.characterId}` }, { text: 'hi' }, 404, 'NotFound'],
      [chat, { text: 'x'.repeat(4001) }, 400, 'BadRequest'],
      [chat, { text: '   ' }, 400, 'BadRequest'],
      [chat, { text: 'hi', currentDateTime: '2026-11-22T10:30:00Z' }, 400, 'BadRequest'],
    ]
    for (const [who, body, status, error] of cases) {
      const res = await send(offline, who, body)
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect((await res.json()).error).toBe(error)
    }
    expect(await storedMessages(offline, chat)).toEqual([])
    expect(await storedMessages(offline, training)).toEqual([])
    expect(await messageCount(offline, chat)).toBe(0)
  })

  test('a conversation bound to one character refuses another', async () => {
    const chat = await startChat(offline)
    await allEvents(await send(offline, chat, { text: 'first message here' }))
    const [second] = await offline.ctx.sql<{ id: string }[]>`
      insert into characters (user_id, name, is_ready, prompt) values (${chat.userId}, 'Other', true, 'p') returning id`
    const res = await send(offline, { ...chat, path: `/chatbots/conversations/${chat.conversationId}/character/${second.id}` }, { text: 'hi there' })
    expect(res.status).toBe(400)
  })

  test('images: own uploads only, at most 3; an image alone is a message', async () => {
    const chat = await startChat(offline)
    const other = await startChat(offline)
    const mine = await upload(offline, chat.cookie)
    const theirs = await upload(offline, other.cookie)
    const refused = await send(offline, chat, { text: 'look', files: [{ id: theirs }] })
    expect(refused.status).toBe(400)
    expect((await refused.json()).message).toBe('files: only images you uploaded yourself can be attached')
    const four = await Promise.all([1, 2, 3, 4].map(() => upload(offline, chat.cookie)))
    expect((await send(offline, chat, { text: 'look', files: four.map((id) => ({ id })) })).status).toBe(400)
    expect((await send(offline, chat, { text: 'look', files: [{ id: mine }, { id: mine }] })).status).toBe(400)
    expect((await send(offline, chat, { text: 'look', files: [{ id: 'not-an-id' }] })).status).toBe(400)
    expect(await storedMessages(offline, chat)).toEqual([])

    const ok = await send(offline, chat, { text: '', files: [{ id: mine }] }, '?sse=false')
    expect(ok.status).toBe(200)
    const body = await ok.json()
    expect(body.newUserMessage.files).toEqual([{ id: mine, mimeType: 'image/png', url: `/api/v1/files/${mine}` }])
    const page = await offline.json('GET', `/chatbots/conversations/${chat.conversationId}?messageDirection=asc`, { cookie: chat.cookie })
    expect(page.body.messages[0].files).toEqual([{ id: mine, mimeType: 'image/png', url: `/api/v1/files/${mine}` }])
  })

  test('the start event carries the sent images at their served addresses', async () => {
    const chat = await startChat(offline)
    const mine = await upload(offline, chat.cookie)
    const res = await send(offline, chat, { text: 'two photos', files: [{ id: mine }] })
    const [start] = await allEvents(res)
    expect(start.event).toBe('start')
    expect(start.data.userMessage.id).toBe(start.data.userMessageId)
    expect(start.data.userMessage.files).toEqual([{ id: mine, mimeType: 'image/png', url: `/api/v1/files/${mine}` }])
    const served = await offline.app.handle(new Request(`http://localhost/api/v1/files/${mine}`, { headers: { cookie: chat.cookie } }))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
  })
})

/** The chat replies the fake model was asked for (not the memory extractions after them). */
const replyRequests = () => fake.chats().filter((r) => !r.body.format)

describe('streaming from an Ollama server', () => {
  test('the model gets the character prompt, the local time, recent history, the language and the images', async () => {
    const chat = await startChat(ollama, { prompt: 'You are Mei, the calm and brave ideal self.' })
    await allEvents(await send(ollama, chat, { text: 'My first worry is about money' }))
    const image = await upload(ollama, chat.cookie)
    const events = await allEvents(await send(ollama, chat, { text: 'And this is my desk', files: [{ id: image }] }))
    expect(events.at(-1)!.data.text).toBe('Reply to "And this is my desk" with 1 image')

    const { messages } = replyRequests().at(-1)!.body
    expect(messages[0].role).toBe('system')
    expect(messages[0].content).toContain('You are Mei, the calm and brave ideal self.')
    expect(messages[0].content).toContain(NOW_TEXT)
    expect(messages[0].content).toContain('Always answer in English')
    expect(messages.slice(1).map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'My first worry is about money'],
      ['assistant', 'Reply to "My first worry is about money"'],
      ['user', 'And this is my desk'],
    ])
    expect(messages.at(-1).images).toEqual([Buffer.from(PNG).toString('base64')])
  })

  test('a message in another language asks for a reply in that language', async () => {
    const chat = await startChat(ollama)
    await allEvents(await send(ollama, chat, { text: '我们明天见面吧，这个问题让我很烦恼' }))
    await memoryExtractionsIdle(ollama)
    expect(replyRequests().at(-1)!.body.messages[0].content).toContain('Always answer in Simplified Chinese')
    await allEvents(await send(ollama, chat, { text: '我們明天見面吧，這個問題讓我很煩惱' }))
    expect(replyRequests().at(-1)!.body.messages[0].content).toContain('Always answer in Traditional Chinese')
  })

  test('the reply is finished and saved when the client disconnects mid-stream', async () => {
    const chat = await startChat(ollama)
    const chunks = ['One ', 'two ', 'three ', 'four ', 'five.']
    fake.queueReplies({ chunks, chunkDelayMs: 150 })
    const client = new AbortController()
    const res = await ollama.app.handle(chatRequest(chat, { text: 'Tell me five things' }, '', client.signal))
    let botMessageId = ''
    for await (const event of readEvents(res.body!)) {
      if (event.event === 'start') botMessageId = event.data.botMessageId
      if (event.event === 'delta') break
    }
    client.abort()
    const upstream = replyRequests().at(-1)!
    expect(await upstream.ended).toBe('completed')

    const url = `/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}`
    let polled: any
    for (let i = 0; i < 50; i++) {
      polled = (await ollama.json('GET', url, { cookie: chat.cookie })).body
      if (polled.status === 'COMPLETE') break
      await Bun.sleep(100)
    }
    expect(polled).toEqual({ id: botMessageId, role: 'ASSISTANT', text: chunks.join(''), status: 'COMPLETE', help: null, sources: { memories: [], people: [] }, version: 1 })
  })

  test('a model that is slow to start gets a heartbeat every 15 s, so idle timeouts keep the stream open', async () => {
    const chat = await startChat(ollama)
    fake.queueReplies({ chunks: ['Finally.'], chunkDelayMs: 15_500 })
    const events = await allEvents(await send(ollama, chat, { text: 'Take your time' }))
    expect(events.map((e) => e.event)).toEqual(['start', 'heartbeat', 'delta', 'done'])
  }, 25_000)

  test.each([
    ['before the first word', { status: 500, error: 'model crashed' }],
    ['mid-stream', { text: 'I was saying something important', errorAfterChunks: 2, error: 'lost the GPU' }],
  ])('a model failure %s removes both messages and gives the count back', async (_, script) => {
    const chat = await startChat(ollama)
    // Microseconds in the stored renewal time: the refund must still find the period it counted in.
    await ollama.ctx.sql`update users set message_count = 7, message_reset_at = now() + interval '3 days' where id = ${chat.userId}`
    fake.queueReplies(script)
    const events = await allEvents(await send(ollama, chat, { text: 'Are you there?' }))
    expect(events[0].event).toBe('start')
    expect(events[0].data.messageLimit.count).toBe(8)
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { error: 'BotResponseFailureException', message: expect.any(String) } })
    expect(events.some((e) => e.event === 'done')).toBe(false)
    expect(await storedMessages(ollama, chat)).toEqual([])
    expect(await messageCount(ollama, chat)).toBe(7)
  })

  test('with ?sse=false a model failure is a 502 BotResponseFailureException', async () => {
    const chat = await startChat(ollama)
    fake.queueReplies({ status: 500, error: 'model crashed' })
    const res = await send(ollama, chat, { text: 'Are you there?' }, '?sse=false')
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ statusCode: 502, error: 'BotResponseFailureException', message: expect.any(String) })
    expect(await storedMessages(ollama, chat)).toEqual([])
    expect(await messageCount(ollama, chat)).toBe(0)
  })
})

