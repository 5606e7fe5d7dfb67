import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { allEvents, NOW_TEXT, startChat, type ChatSetup } from '../unit/chat/chatFixtures'

const MODEL = 'llama3.2:1b'
let app: TestApp
let fake: FakeModelServer

beforeAll(async () => {
  fake = startFakeOllama({ models: [MODEL] })
  app = await startTestApp({}, { model: createOllamaProvider({ host: fake.url, model: MODEL }) })
})
afterAll(async () => {
  await app?.close()
  fake?.stop()
})

const chatReplies = (replies: string[]) => {
  let i = 0
  fake.reply((input) => (input.schema ? defaultReply(input) : { text: replies[Math.min(i++, replies.length - 1)] }))
}

async function stream(res: Response) {
  expect(res.status).toBe(200)
  const events = await allEvents(res)
  return { start: events[0].data, end: events.at(-1)! }
}

const send = (chat: ChatSetup, text: string) =>
  app.call('POST', `${chat.path}/chat`, { cookie: chat.cookie, body: { text, currentDateTime: NOW_TEXT } }).then(stream)
const regenerate = (chat: ChatSetup, cookie = chat.cookie) =>
  app.call('POST', `${chat.path}/regenerate`, { cookie, body: { currentDateTime: NOW_TEXT } })
const edit = (chat: ChatSetup, messageId: string, text: string, cookie = chat.cookie) =>
  app.call('PUT', `${chat.path}/messages/${messageId}`, { cookie, body: { text, currentDateTime: NOW_TEXT } })

const countOf = async (chat: ChatSetup) =>
  (await app.ctx.sql<{ message_count: number }[]>`select message_count from users where id = ${chat.userId}`)[0].message_count
const page = async (chat: ChatSetup) =>
  (await app.json('GET', `/chatbots/conversations/${chat.conversationId}?messageDirection=asc`, { cookie: chat.cookie })).body.messages as any[]

describe('regenerate the last reply', () => {
  test('a new version streams in place, counted like a message; earlier versions are browsable with their own feedback', async () => {
    const chat = await startChat(app)
    chatReplies(['First answer', 'Second answer', 'Third answer'])
    const first = await send(chat, 'Help me get ready for the interview')
    expect(await countOf(chat)).toBe(1)

    const second = await stream(await regenerate(chat))
    expect(second.start).toMatchObject({ botMessageId: first.start.botMessageId, userMessageId: first.start.userMessageId, version: 2 })
    expect(second.end).toMatchObject({ event: 'done', data: { text: 'Second answer' } })
    expect(await countOf(chat)).toBe(2)
    // The model saw the same turn again, not the old reply.
    const sent = fake.chats().at(-1)!.body.messages
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Help me get ready for the interview' })
    expect(JSON.stringify(sent)).not.toContain('First answer')

    await stream(await regenerate(chat))
    const messages = await page(chat)
    expect(messages.map((m) => [m.role, m.text, m.version])).toEqual([
      ['USER', 'Help me get ready for the interview', 1],
      ['ASSISTANT', 'Third answer', 3],
    ])
    const versions = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${first.start.botMessageId}/versions`, { cookie: chat.cookie })
    expect(versions.body.versions.map((v: any) => [v.version, v.text, v.current])).toEqual([
      [1, 'First answer', false],
      [2, 'Second answer', false],
      [3, 'Third answer', true],
    ])

    const feedback = (version?: number) =>
      app.json('POST', '/feedbacks/bot-response-message', { cookie: chat.cookie, body: { messageId: first.start.botMessageId, feedbackText: 'Too long', ...(version ? { version } : {}) } })
    expect((await feedback(1)).body).toMatchObject({ version: 1 })
    expect((await feedback()).body).toMatchObject({ version: 3 })
    expect((await feedback(4)).status).toBe(404)
  })

  test('when the model fails the reply is as it was and the count given back', async () => {
    const chat = await startChat(app)
    chatReplies(['Kept answer'])
    const first = await send(chat, 'What should I focus on this week?')
    fake.reply((input) => (input.schema ? defaultReply(input) : { status: 500, error: 'model down' }))
    try {
      const failed = await stream(await regenerate(chat))
      expect(failed.end).toMatchObject({ event: 'error', data: { error: 'BotResponseFailureException' } })
    } finally {
      fake.reply(defaultReply)
    }
    expect(await countOf(chat)).toBe(1)
    expect((await page(chat)).map((m) => [m.id, m.text, m.version])).toEqual([
      [first.start.userMessageId, 'What should I focus on this week?', 1],
      [first.start.botMessageId, 'Kept answer', 1],
    ])
    const versions = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${first.start.botMessageId}/versions`, { cookie: chat.cookie })
    expect(versions.body.versions).toHaveLength(1)
  })

  test('the free allowance is checked in the same transaction', async () => {
    const chat = await startChat(app)
    chatReplies(['Only answer'])
    await send(chat, 'One message left')
    await app.ctx.sql`update users set message_limit = 1 where id = ${chat.userId}`
    const refused = await app.json('POST', `${chat.path}/regenerate`, { cookie: chat.cookie, body: { currentDateTime: NOW_TEXT } })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe('MessageLimitReached')
    expect((await page(chat)).at(-1)).toMatchObject({ text: 'Only answer', version: 1 })
  })

  test('nothing to regenerate, a reply still being written, and another person’s conversation are refused', async () => {
    const chat = await startChat(app)
    const empty = await app.json('POST', `${chat.path}/regenerate`, { cookie: chat.cookie, body: { currentDateTime: NOW_TEXT } })
    expect(empty.status).toBe(409)
    expect(empty.body).toEqual({ statusCode: 409, error: 'NothingToRevise', message: expect.any(String) })

    chatReplies(['An answer'])
    await send(chat, 'Hello there, how are you')
    await app.ctx.sql`update messages set status = 'PENDING' where conversation_id = ${chat.conversationId} and role = 'ASSISTANT'`
    expect((await app.json('POST', `${chat.path}/regenerate`, { cookie: chat.cookie, body: { currentDateTime: NOW_TEXT } })).body.error).toBe('ReplyInProgress')
    await app.ctx.sql`update messages set status = 'COMPLETE' where conversation_id = ${chat.conversationId}`

    const other = await app.signUp()
    expect((await app.json('POST', `${chat.path}/regenerate`, { cookie: other.cookie, body: { currentDateTime: NOW_TEXT } })).status).toBe(404)
    const [{ id }] = await app.ctx.sql<{ id: string }[]>`select id from messages where conversation_id = ${chat.conversationId} and role = 'ASSISTANT'`
    expect((await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${id}/versions`, { cookie: other.cookie })).status).toBe(404)
    expect((await app.json('POST', `${chat.path}/regenerate`, { cookie: chat.cookie, body: { currentDateTime: 'yesterday' } })).status).toBe(400)
    expect(await countOf(chat)).toBe(1)
  })
})

describe('edit and resend the last message', () => {
  test('the message changes and a new reply replaces the old one, its versions and feedback', async () => {
    const chat = await startChat(app)
    chatReplies(['Old answer', 'Regenerated answer', 'Answer to the edit'])
    const first = await send(chat, 'I have a job intervew tomorow')
    await stream(await regenerate(chat))
    await app.json('POST', '/feedbacks/bot-response-message', { cookie: chat.cookie, body: { messageId: first.start.botMessageId, feedbackText: 'Meh' } })

    const edited = await stream(await edit(chat, first.start.userMessageId, 'I have a job interview tomorrow'))
    expect(edited.end).toMatchObject({ event: 'done', data: { text: 'Answer to the edit' } })
    expect(fake.chats().filter((r) => !r.body.format).at(-1)!.body.messages.at(-1).content).toBe('I have a job interview tomorrow')
    expect((await page(chat)).map((m) => [m.role, m.text, m.version])).toEqual([
      ['USER', 'I have a job interview tomorrow', 1],
      ['ASSISTANT', 'Answer to the edit', 1],
    ])
    const versions = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${first.start.botMessageId}/versions`, { cookie: chat.cookie })
    expect(versions.body.versions.map((v: any) => v.text)).toEqual(['Answer to the edit'])
    expect(await app.ctx.sql`select 1 from message_feedbacks where message_id = ${first.start.botMessageId}`).toHaveLength(0)
    expect(await countOf(chat)).toBe(3)
  })

  test('when the model fails everything is put back: message, reply, versions, feedback and count', async () => {
    const chat = await startChat(app)
    chatReplies(['Old answer', 'Second version'])
    const first = await send(chat, 'Original words')
    await stream(await regenerate(chat))
    await app.json('POST', '/feedbacks/bot-response-message', { cookie: chat.cookie, body: { messageId: first.start.botMessageId, feedbackText: 'Good', version: 1 } })
    fake.reply((input) => (input.schema ? defaultReply(input) : { status: 500, error: 'model down' }))
    try {
      const failed = await stream(await edit(chat, first.start.userMessageId, 'New words'))
      expect(failed.end.event).toBe('error')
    } finally {
      fake.reply(defaultReply)
    }
    expect((await page(chat)).map((m) => [m.text, m.version])).toEqual([['Original words', 1], ['Second version', 2]])
    const versions = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${first.start.botMessageId}/versions`, { cookie: chat.cookie })
    expect(versions.body.versions.map((v: any) => v.text)).toEqual(['Old answer', 'Second version'])
    expect(await app.ctx.sql`select version from message_feedbacks where message_id = ${first.start.botMessageId}`).toEqual([{ version: 1 }])
    expect(await countOf(chat)).toBe(2)
  })

  test('only the last message, only the owner, never blank', async () => {
    const chat = await startChat(app)
    chatReplies(['A', 'B'])
    const first = await send(chat, 'First message here')
    const second = await send(chat, 'Second message here')
    const older = await app.json('PUT', `${chat.path}/messages/${first.start.userMessageId}`, { cookie: chat.cookie, body: { text: 'changed', currentDateTime: NOW_TEXT } })
    expect(older.status).toBe(409)
    expect(older.body.error).toBe('NotLastMessage')
    const other = await app.signUp()
    expect((await app.json('PUT', `${chat.path}/messages/${second.start.userMessageId}`, { cookie: other.cookie, body: { text: 'mine now', currentDateTime: NOW_TEXT } })).status).toBe(404)
    const blank = await app.json('PUT', `${chat.path}/messages/${second.start.userMessageId}`, { cookie: chat.cookie, body: { text: '   ', currentDateTime: NOW_TEXT } })
    expect(blank.status).toBe(400)
    expect((await page(chat)).map((m) => m.text)).toEqual(['First message here', 'A', 'Second message here', 'B'])
    expect(await countOf(chat)).toBe(2)
  })
})

describe('a second try keeps help first', () => {
  test('regenerating a reply to a message about suicide opens with the help block again, and its versions keep theirs', async () => {
    const chat = await startChat(app)
    chatReplies(['I am here with you.', 'You matter, and I am staying right here.'])
    const first = await send(chat, 'I want to kill myself')
    const res = await regenerate(chat)
    const events = await allEvents(res)
    const names = events.map((e) => e.event).filter((e) => e !== 'heartbeat')
    expect(names.slice(0, 3)).toEqual(['start', 'help', 'delta'])
    const help = events.find((e) => e.event === 'help')!.data.text as string
    const done = events.at(-1)!.data
    expect(done.help).toBe(help)
    expect(done.text.startsWith(help)).toBe(true)
    expect(done.text).toContain('You matter')
    const versions = (await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${first.start.botMessageId}/versions`, { cookie: chat.cookie })).body.versions
    expect(versions.map((v: any) => [v.version, Boolean(v.help), v.text.startsWith(v.help ?? '\u0000')])).toEqual([
      [1, true, true],
      [2, true, true],
    ])
  })

  test('editing an ordinary message into one about self-harm gets the help block first', async () => {
    const chat = await startChat(app)
    chatReplies(['Sounds like a long day.', 'I am glad you told me. I am here.'])
    const first = await send(chat, 'Long day at work today')
    expect(first.end.data.help).toBeNull()
    const events = await allEvents(await edit(chat, first.start.userMessageId, 'I want to end my life'))
    expect(events.map((e) => e.event).filter((e) => e !== 'heartbeat').slice(0, 2)).toEqual(['start', 'help'])
    expect(events.at(-1)!.data.help).toEqual(expect.any(String))
  })
})
