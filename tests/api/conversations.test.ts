import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { insertCharacter, NOW_TEXT, startChat } from '../unit/chat/chatFixtures'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const sql = () => app.ctx.sql

async function insertMessages(conversationId: string, userId: string, count: number, at: Date) {
  // Pairs share one timestamp, so the order has to fall back to the id.
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(at.getTime() + Math.floor(i / 2) * 1000)
    await sql()`insert into messages (conversation_id, user_id, role, text, created_at)
                values (${conversationId}, ${userId}, ${i % 2 ? 'ASSISTANT' : 'USER'}, ${`message ${i}`}, ${createdAt})`
  }
}

async function expectedOrder(conversationId: string, direction: 'asc' | 'desc') {
  const rows = await sql()<{ id: string }[]>`select id from messages where conversation_id = ${conversationId} order by created_at, id`
  const ids = rows.map((r) => r.id)
  return direction === 'asc' ? ids : ids.reverse()
}

describe('POST and GET /chatbots/conversations', () => {
  test('signed out is 401', async () => {
    expect((await app.json('GET', '/chatbots/conversations')).status).toBe(401)
    expect((await app.json('POST', '/chatbots/conversations', { body: { name: 'x' } })).status).toBe(401)
  })

  test('creates with a name of 1 to 200 characters and returns conversationId', async () => {
    const { cookie } = await app.signUp()
    const name = `Ideal Self ${new Date().toISOString()}`
    const { status, body } = await app.json('POST', '/chatbots/conversations', { cookie, body: { name } })
    expect(status).toBe(200)
    expect(body).toEqual({ conversationId: body.id, id: expect.any(String), name, createdAt: expect.any(String) })
    expect((await app.json('POST', '/chatbots/conversations', { cookie, body: { name: '' } })).status).toBe(400)
    expect((await app.json('POST', '/chatbots/conversations', { cookie, body: { name: '   ' } })).body.message).toBe('name is required')
    const long = await app.json('POST', '/chatbots/conversations', { cookie, body: { name: 'x'.repeat(201) } })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe('name must be 1 to 200 characters')
  })

  test('binds to an own character only', async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const own = await insertCharacter(sql(), a.user.id)
    const theirs = await insertCharacter(sql(), b.user.id)
    const bound = await app.json('POST', '/chatbots/conversations', { cookie: a.cookie, body: { name: 'n', characterId: own } })
    expect(bound.status).toBe(200)
    const shown = await app.json('GET', `/chatbots/conversations/${bound.body.id}`, { cookie: a.cookie })
    expect(shown.body.characterId).toBe(own)
    expect((await app.json('POST', '/chatbots/conversations', { cookie: a.cookie, body: { name: 'n', characterId: theirs } })).status).toBe(404)
    expect((await app.json('POST', '/chatbots/conversations', { cookie: a.cookie, body: { name: 'n', characterId: 'nope' } })).status).toBe(404)
  })

  test('lists only the own conversations, newest first', async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const names = ['first', 'second', 'third']
    for (const name of names) await app.json('POST', '/chatbots/conversations', { cookie: a.cookie, body: { name } })
    await app.json('POST', '/chatbots/conversations', { cookie: b.cookie, body: { name: 'not yours' } })
    const { body } = await app.json('GET', '/chatbots/conversations', { cookie: a.cookie })
    expect(body.map((c: any) => c.name)).toEqual(['third', 'second', 'first'])
    expect(body[0]).toEqual({ id: expect.any(String), name: 'third', characterId: null, createdAt: expect.any(String), updatedAt: expect.any(String) })
  })
})

describe('GET /chatbots/conversations/{id}', () => {
  test("another user's conversation and a malformed id are 404", async () => {
    const chat = await startChat(app)
    const other = await app.signUp()
    expect((await app.json('GET', `/chatbots/conversations/${chat.conversationId}`, { cookie: other.cookie })).status).toBe(404)
    expect((await app.json('GET', '/chatbots/conversations/123', { cookie: chat.cookie })).status).toBe(404)
  })

  test('pages 15 at a time, newest first by default, stable when timestamps tie', async () => {
    const chat = await startChat(app)
    await insertMessages(chat.conversationId, chat.userId, 40, new Date(Date.now() - 3_600_000))
    const seen: string[] = []
    for (const offset of [0, 15, 30]) {
      const { body } = await app.json('GET', `/chatbots/conversations/${chat.conversationId}?messageOffset=${offset}`, { cookie: chat.cookie })
      expect(body.total).toBe(40)
      expect(body.messages.length).toBe(offset === 30 ? 10 : 15)
      seen.push(...body.messages.map((m: any) => m.id))
    }
    expect(seen).toEqual(await expectedOrder(chat.conversationId, 'desc'))
    const first = await app.json('GET', `/chatbots/conversations/${chat.conversationId}?messageLimit=3`, { cookie: chat.cookie })
    const [newest] = await sql()<{ text: string; role: string; created_at: Date }[]>`select text, role, created_at from messages where id = ${seen[0]}`
    expect(first.body.messages[0]).toEqual({ id: seen[0], text: newest.text, role: newest.role, createdAt: newest.created_at.toISOString(), files: [], help: null, sources: null, version: 1 })
    expect(['message 38', 'message 39']).toContain(newest.text)
    expect(first.body).toMatchObject({ id: chat.conversationId, name: expect.any(String), characterId: null })
  })

  test('messageDirection=asc pages oldest first', async () => {
    const chat = await startChat(app)
    await insertMessages(chat.conversationId, chat.userId, 20, new Date(Date.now() - 3_600_000))
    const a = await app.json('GET', `/chatbots/conversations/${chat.conversationId}?messageLimit=10&messageDirection=asc`, { cookie: chat.cookie })
    const b = await app.json('GET', `/chatbots/conversations/${chat.conversationId}?messageLimit=10&messageOffset=10&messageDirection=asc`, {
      cookie: chat.cookie,
    })
    expect([...a.body.messages, ...b.body.messages].map((m: any) => m.id)).toEqual(await expectedOrder(chat.conversationId, 'asc'))
  })

  test('paging parameters are checked', async () => {
    const chat = await startChat(app)
    const base = `/chatbots/conversations/${chat.conversationId}`
    for (const q of ['messageLimit=0', 'messageLimit=101', 'messageLimit=abc', 'messageOffset=-1', 'messageDirection=up']) {
      const { status, body } = await app.json('GET', `${base}?${q}`, { cookie: chat.cookie })
      expect(status, q).toBe(400)
      expect(body.error).toBe('BadRequest')
    }
    expect((await app.json('GET', `${base}?messageLimit=100`, { cookie: chat.cookie })).status).toBe(200)
  })
})

describe('GET /chatbots/conversations/{id}/messages/{messageId}', () => {
  test('returns id, role, text and status to the owner only', async () => {
    const chat = await startChat(app)
    const [row] = await sql()<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text, status)
      values (${chat.conversationId}, ${chat.userId}, 'ASSISTANT', '', 'PENDING') returning id`
    const url = `/chatbots/conversations/${chat.conversationId}/messages/${row.id}`
    expect((await app.json('GET', url, { cookie: chat.cookie })).body).toEqual({ id: row.id, role: 'ASSISTANT', text: '', status: 'PENDING', help: null, sources: null, version: 1 })
    const other = await app.signUp()
    expect((await app.json('GET', url, { cookie: other.cookie })).status).toBe(404)
    expect((await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/x`, { cookie: chat.cookie })).status).toBe(404)
  })
})

describe('DELETE /chatbots/conversations/{id}/timeout-messages', () => {
  test('removes only replies left PENDING or empty for over 4 minutes', async () => {
    const chat = await startChat(app)
    const insert = (role: string, text: string, status: string, minutesAgo: number) => sql()<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text, status, created_at)
      values (${chat.conversationId}, ${chat.userId}, ${role}, ${text}, ${status}, now() - make_interval(mins => ${minutesAgo}))
      returning id`
    const [stale] = await insert('ASSISTANT', '', 'PENDING', 10)
    const [staleEmpty] = await insert('ASSISTANT', '', 'COMPLETE', 10)
    const [fresh] = await insert('ASSISTANT', '', 'PENDING', 1)
    const [done] = await insert('ASSISTANT', 'a real reply', 'COMPLETE', 10)
    const [userMessage] = await insert('USER', '', 'COMPLETE', 10)
    const other = await app.signUp()
    expect((await app.json('DELETE', `/chatbots/conversations/${chat.conversationId}/timeout-messages`, { cookie: other.cookie })).status).toBe(404)
    const { body } = await app.json('DELETE', `/chatbots/conversations/${chat.conversationId}/timeout-messages`, { cookie: chat.cookie })
    expect(body).toEqual({ deletedCount: 2 })
    const left = (await sql()<{ id: string }[]>`select id from messages where conversation_id = ${chat.conversationId}`).map((r) => r.id)
    expect(left.sort()).toEqual([fresh.id, done.id, userMessage.id].sort())
    expect(left).not.toContain(stale.id)
    expect(left).not.toContain(staleEmpty.id)
  })
})

describe('DELETE /chatbots/conversations/{id}/messages', () => {
  test('a developer tool: REGULAR is refused, staff clear only their own conversations', async () => {
    const chat = await startChat(app)
    await insertMessages(chat.conversationId, chat.userId, 4, new Date())
    const url = `/chatbots/conversations/${chat.conversationId}/messages`
    expect((await app.json('DELETE', url, { cookie: chat.cookie })).status).toBe(403)

    const dev = await app.makeUser({ role: 'DEVELOPER' })
    const devCookie = await app.signIn(dev.email, dev.password)
    expect((await app.json('DELETE', url, { cookie: devCookie })).status).toBe(404)
    const own = await app.json('POST', '/chatbots/conversations', { cookie: devCookie, body: { name: 'dev chat' } })
    await insertMessages(own.body.id, dev.id, 3, new Date())
    const cleared = await app.json('DELETE', `/chatbots/conversations/${own.body.id}/messages`, { cookie: devCookie })
    expect(cleared.body).toEqual({ deletedCount: 3 })
    expect((await app.json('GET', `/chatbots/conversations/${own.body.id}`, { cookie: devCookie })).body.total).toBe(0)
    expect((await app.json('GET', `/chatbots/conversations/${chat.conversationId}`, { cookie: chat.cookie })).body.total).toBe(4)
  })
})

describe('GET /chatbots/conversations/{id}/character/{characterId}/hello', () => {
  const hello = (path: string, cookie: string, when = NOW_TEXT) =>
    app.json('GET', `${path}/hello?currentDateTime=${encodeURIComponent(when)}`, { cookie })

  test('saves the greeting as the first assistant message, once', async () => {
    const chat = await startChat(app)
    const first = await hello(chat.path, chat.cookie)
    expect(first.status).toBe(200)
    expect(first.body.newChatbotMessage).toEqual({ id: expect.any(String), text: expect.any(String), role: 'ASSISTANT', createdAt: expect.any(String) })
    expect(first.body.newChatbotMessage.text.length).toBeGreaterThan(0)
    const again = await hello(chat.path, chat.cookie)
    expect(again.body.newChatbotMessage).toEqual(first.body.newChatbotMessage)
    const { body } = await app.json('GET', `/chatbots/conversations/${chat.conversationId}`, { cookie: chat.cookie })
    expect(body.total).toBe(1)
    expect(body.characterId).toBe(chat.characterId)
  })

  test('two tabs asking at once still get one hello', async () => {
    const chat = await startChat(app)
    const [a, b] = await Promise.all([hello(chat.path, chat.cookie), hello(chat.path, chat.cookie)])
    expect(a.body.newChatbotMessage.id).toBe(b.body.newChatbotMessage.id)
    expect((await app.json('GET', `/chatbots/conversations/${chat.conversationId}`, { cookie: chat.cookie })).body.total).toBe(1)
  })

  test("greets in the onboarding language, zh-TW when there is none", async () => {
    const chat = await startChat(app, { prompt: '## Name\nMei' })
    const zhTW = await hello(chat.path, chat.cookie)
    expect(zhTW.body.newChatbotMessage.text).toContain('今天想聊些什麼')

    const english = await startChat(app, { prompt: '## Name\nMei' })
    await sql()`insert into training_data (user_id, preferred_language) values (${english.userId}, 'en-US')`
    expect((await hello(english.path, english.cookie)).body.newChatbotMessage.text).toContain("What's on your mind today?")
  })

  test('checks the date-time, the character and the conversation', async () => {
    const chat = await startChat(app)
    for (const when of ['', '2026-11-22 10:30:00', 'Monday 2026-11-22 10:30:00', 'Sunday 2026-11-22 25:30:00']) {
      const { status, body } = await hello(chat.path, chat.cookie, when)
      expect(status, when).toBe(400)
      expect(body.message).toContain('currentDateTime')
    }
    const training = await startChat(app, { ready: false })
    const notReady = await hello(training.path, training.cookie)
    expect(notReady.status).toBe(409)
    expect(notReady.body.error).toBe('CharacterNotReady')
    const other = await app.signUp()
    expect((await hello(chat.path, other.cookie)).status).toBe(404)
    const theirCharacter = await insertCharacter(sql(), other.user.id)
    expect((await hello(`/chatbots/conversations/${chat.conversationId}/character/${theirCharacter}`, chat.cookie)).status).toBe(404)
  })
})

describe('POST /feedbacks/bot-response-message', () => {
  test("stores feedback on the caller's own bot replies only", async () => {
    const chat = await startChat(app)
    const [bot] = await sql()<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text) values (${chat.conversationId}, ${chat.userId}, 'ASSISTANT', 'hi') returning id`
    const [mine] = await sql()<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text) values (${chat.conversationId}, ${chat.userId}, 'USER', 'hello') returning id`
    const ok = await app.json('POST', '/feedbacks/bot-response-message', { cookie: chat.cookie, body: { messageId: bot.id, feedbackText: '  Spot on  ' } })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ id: expect.any(String), messageId: bot.id, feedbackText: 'Spot on', version: 1, createdAt: expect.any(String) })
    const [stored] = await sql()<{ feedback_text: string; user_id: string }[]>`select feedback_text, user_id from message_feedbacks where message_id = ${bot.id}`
    expect(stored).toEqual({ feedback_text: 'Spot on', user_id: chat.userId })

    const send = (cookie: string, messageId: string, feedbackText: string) =>
      app.json('POST', '/feedbacks/bot-response-message', { cookie, body: { messageId, feedbackText } })
    expect((await send(chat.cookie, mine.id, 'not a bot message')).status).toBe(404)
    const other = await app.signUp()
    expect((await send(other.cookie, bot.id, 'not mine')).status).toBe(404)
    expect((await send(chat.cookie, 'x', 'bad id')).status).toBe(404)
    expect((await send(chat.cookie, bot.id, '   ')).status).toBe(400)
    expect((await send(chat.cookie, bot.id, 'y'.repeat(2001))).body.message).toBe('feedbackText must be 1 to 2000 characters')
    expect((await send(chat.cookie, bot.id, 'y'.repeat(2000))).status).toBe(200)
  })
})
