// GET …/messages/{id}/stream: a reply read while it is written, from the instance writing it or from any other
// sharing the database (PostgreSQL), and the end of a reply whose writer is gone.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { memoryExtractionsIdle, NOW_TEXT, readEvents, startChat, type ChatSetup, type StreamEvent } from '../unit/chat/chatFixtures'

const MODEL = 'llama3.2:1b'
const SHARED = process.env.DATABASE_URL ? 'PostgreSQL' : null
// Both apps sign with one secret, as instances of one installation do.
const SESSION_SECRET = 'a-session-secret-shared-by-every-instance-0123456789'
let writer: TestApp
let fake: FakeModelServer

beforeAll(async () => {
  fake = startFakeOllama({ models: [MODEL] })
  writer = await startTestApp({ SESSION_SECRET }, { model: createOllamaProvider({ host: fake.url, model: MODEL }) })
})
beforeEach(() => memoryExtractionsIdle(writer))
afterAll(async () => {
  await writer?.close()
  fake?.stop()
})

const CHUNKS = ['Step ', 'by ', 'step, ', '你', '可以', '的。 ', 'Keep ', 'going — ', '🌱 ', 'always.']

function startReply(chat: ChatSetup, text: string) {
  return writer.app.handle(
    new Request(`http://localhost/api/v1${chat.path}/chat`, {
      method: 'POST',
      headers: { cookie: chat.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ currentDateTime: NOW_TEXT, text }),
    }),
  )
}

const streamOf = (app: TestApp, chat: ChatSetup, messageId: string, cookie = chat.cookie) =>
  app.call('GET', `/chatbots/conversations/${chat.conversationId}/messages/${messageId}/stream`, { cookie })

async function eventsUntil(iterator: AsyncGenerator<StreamEvent>, last: (e: StreamEvent) => boolean) {
  // next() by hand: breaking out of a for-await would close the stream, and the caller may read on.
  const events: StreamEvent[] = []
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
    events.push(step.value)
    if (last(step.value)) break
  }
  return events
}

const ended = (e: StreamEvent) => e.event === 'done' || e.event === 'error'
const deltas = (events: StreamEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.t as string)

/** Starts a slow reply and reads up to its first delta; returns the writer's stream and the reply's id. */
async function slowReply(chat: ChatSetup) {
  fake.queueReplies({ chunks: CHUNKS, chunkDelayMs: 120 })
  const res = await startReply(chat, 'Help me keep going')
  expect(res.status).toBe(200)
  const onWriter = readEvents(res.body!)
  const head = await eventsUntil(onWriter, (e) => e.event === 'delta')
  return { onWriter, head, botMessageId: head[0].data.botMessageId as string }
}

describe('reading a reply by its id', () => {
  test('on the instance writing it: what was written so far, then each delta as it comes, then done', async () => {
    const chat = await startChat(writer)
    const { onWriter, head, botMessageId } = await slowReply(chat)
    const res = await streamOf(writer, chat, botMessageId)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    const read = await eventsUntil(readEvents(res.body!), ended)
    const written = [...head, ...(await eventsUntil(onWriter, ended))]
    expect(deltas(read).join('')).toBe(CHUNKS.join(''))
    expect(read.at(-1)).toMatchObject({ event: 'done', data: { botMessageId, text: CHUNKS.join(''), help: null } })
    expect(read.at(-1)!.data).toEqual(written.at(-1)!.data)
  })

  test('once finished, the reply comes whole: its text, then done', async () => {
    const chat = await startChat(writer)
    fake.queueReplies({ chunks: CHUNKS })
    const res = await startReply(chat, 'Tell me the whole story')
    const written = await eventsUntil(readEvents(res.body!), ended)
    const botMessageId = written[0].data.botMessageId
    const read = await eventsUntil(readEvents((await streamOf(writer, chat, botMessageId)).body!), ended)
    expect(deltas(read).join('')).toBe(CHUNKS.join(''))
    expect(read.at(-1)).toMatchObject({ event: 'done', data: { botMessageId, text: CHUNKS.join('') } })
  })

  test('a crisis reply comes with its help block first, whole or live', async () => {
    const chat = await startChat(writer)
    const res = await startReply(chat, 'I want to kill myself tonight')
    const written = await eventsUntil(readEvents(res.body!), ended)
    const help = written.find((e) => e.event === 'help')!.data.text as string
    const read = await eventsUntil(readEvents((await streamOf(writer, chat, written[0].data.botMessageId)).body!), ended)
    expect(read[0]).toMatchObject({ event: 'start', data: { botMessageId: written[0].data.botMessageId } })
    expect(read[1]).toMatchObject({ event: 'help', data: { text: help } })
    expect(read.at(-1)!.data).toEqual(written.at(-1)!.data)
  })

  test("a reply whose writer is gone ends in the failure its reader is told of, once any instance sweeps", async () => {
    const chat = await startChat(writer)
    // What a killed writer leaves: the question and an empty PENDING reply, long unmarked.
    const { replyId } = await writer.ctx.sql.begin(async (tx) => {
      await tx`update users set message_count = message_count + 1 where id = ${chat.userId}`
      await tx`insert into messages (conversation_id, user_id, role, text, created_at)
               values (${chat.conversationId}, ${chat.userId}, 'USER', 'Still there?', now() - interval '2 minutes')`
      const [reply] = await tx<{ id: string }[]>`
        insert into messages (conversation_id, user_id, role, text, status, created_at)
        values (${chat.conversationId}, ${chat.userId}, 'ASSISTANT', '', 'PENDING', now() - interval '2 minutes' + interval '1 microsecond')
        returning id`
      return { replyId: reply.id }
    })
    const res = await streamOf(writer, chat, replyId)
    expect(res.status).toBe(200)
    const stream = readEvents(res.body!)
    expect((await stream.next()).value).toMatchObject({ event: 'start', data: { botMessageId: replyId } })
    const reading = eventsUntil(stream, ended)
    const sweptAt = performance.now()
    // Test files share the database: another app's sweep may take it first, and the reader is told all the same.
    await writer.ctx.replies.sweep()
    const events = await reading
    // Told at once (a notice), not at the next heartbeat.
    expect(events.at(-1)!.at - sweptAt).toBeLessThan(5_000)
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ event: 'error', data: { error: 'BotResponseFailureException', message: 'No response was returned from the model' } }),
    )
  })

  test("someone else's reply, a malformed id and an unknown one are all 404, and a guest is refused", async () => {
    const chat = await startChat(writer)
    fake.queueReplies('Fine.')
    const written = await eventsUntil(readEvents((await startReply(chat, 'Hi')).body!), ended)
    const botMessageId = written[0].data.botMessageId
    const stranger = await writer.signUp()
    expect((await streamOf(writer, chat, botMessageId, stranger.cookie)).status).toBe(404)
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' or '1'='1", '%00'])
      expect((await streamOf(writer, chat, encodeURIComponent(id))).status).toBe(404)
    expect((await writer.call('GET', `/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}/stream`)).status).toBe(401)
  })
})

describe.skipIf(!SHARED)('reading a reply from another instance sharing the database', () => {
  let reader: TestApp
  beforeAll(async () => {
    reader = await startTestApp({ SESSION_SECRET })
  })
  afterAll(() => reader?.close())

  test('the same deltas in the same order as they are written, then the same done', async () => {
    const chat = await startChat(writer)
    const { onWriter, head, botMessageId } = await slowReply(chat)
    const res = await streamOf(reader, chat, botMessageId)
    expect(res.status).toBe(200)
    const read = await eventsUntil(readEvents(res.body!), ended)
    const written = [...head, ...(await eventsUntil(onWriter, ended))]
    // Stored one by one: exactly the model's deltas, never merged, whatever the reader's pace.
    expect(deltas(read)).toEqual(CHUNKS)
    expect(read.at(-1)!.data).toEqual(written.at(-1)!.data)
    // Live: the reader had deltas long before the writer was done.
    const firstDelta = read.find((e) => e.event === 'delta')!
    expect(written.at(-1)!.at - firstDelta.at).toBeGreaterThan(300)
  })

  test('a reply the model fails: the other instance reads the failure', async () => {
    const chat = await startChat(writer)
    fake.queueReplies({ chunks: ['Almost ', 'there ', 'but '], chunkDelayMs: 150, errorAfterChunks: 2, error: 'model crashed' })
    const res = await startReply(chat, 'Will this work?')
    const head = await eventsUntil(readEvents(res.body!), (e) => e.event === 'start')
    const read = await eventsUntil(readEvents((await streamOf(reader, chat, head[0].data.botMessageId)).body!), ended)
    expect(deltas(read)).toEqual(['Almost ', 'there '])
    expect(read.at(-1)).toMatchObject({ event: 'error', data: { error: 'BotResponseFailureException' } })
  })
})
