// The free allowance is counted atomically with the stored message. On PGlite the sends queue on one connection;
// with DATABASE_URL (CI: real PostgreSQL) they truly race, and the row lock of the counting UPDATE decides.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { NOW_TEXT, startChat, type ChatSetup } from '../unit/chat/chatFixtures'
import { periodMs } from '../../api/limits/messageAllowance'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const WEEK = periodMs('week')

const send = (chat: ChatSetup, text: string, query = '?sse=false') =>
  app.call('POST', `${chat.path}/chat${query}`, { cookie: chat.cookie, body: { text, currentDateTime: NOW_TEXT } })

async function allowance(chat: ChatSetup) {
  const [row] = await app.ctx.sql<{ message_count: number; message_limit: number; message_reset_at: Date }[]>`
    select message_count, message_limit, message_reset_at from users where id = ${chat.userId}`
  return row
}

const userMessages = async (chat: ChatSetup) =>
  (await app.ctx.sql<{ n: number }[]>`select count(*)::int as n from messages where conversation_id = ${chat.conversationId} and role = 'USER'`)[0].n

describe('message limit', () => {
  test(`200 concurrent sends with 37 messages left: exactly 37 get through (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const chat = await startChat(app)
    await app.ctx.sql`update users set message_limit = 100, message_count = 63, message_reset_at = ${new Date(Date.now() + WEEK)} where id = ${chat.userId}`
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await send(chat, `concurrent message number ${i}`)
        const body = await res.json()
        if (res.status === 403) expect(body.error).toBe('MessageLimitReached')
        return res.status
      }),
    )
    expect(statuses.filter((s) => s === 200).length).toBe(37)
    expect(statuses.filter((s) => s === 403).length).toBe(163)
    expect((await allowance(chat)).message_count).toBe(100)
    expect(await userMessages(chat)).toBe(37)
  })

  test('at the limit: 403 MessageLimitReached as JSON (also when streaming is asked for), nothing stored', async () => {
    const chat = await startChat(app)
    const resetAt = new Date(Date.now() + 3 * 86_400_000)
    await app.ctx.sql`update users set message_limit = 5, message_count = 5, message_reset_at = ${resetAt} where id = ${chat.userId}`
    for (const query of ['?sse=false', '']) {
      const res = await send(chat, 'one more please', query)
      expect(res.status).toBe(403)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await res.json()).toEqual({
        statusCode: 403,
        error: 'MessageLimitReached',
        message: `You have used all 5 messages of the free plan for this period. They renew at ${resetAt.toISOString()}; Premium has no limit.`,
      })
    }
    expect(await userMessages(chat)).toBe(0)
    expect((await allowance(chat)).message_count).toBe(5)
  })

  test('once the period is over the count starts again and the renewal moves on by whole periods', async () => {
    const chat = await startChat(app)
    const oldReset = new Date(Date.now() - 2.5 * WEEK)
    await app.ctx.sql`update users set message_limit = 5, message_count = 5, message_reset_at = ${oldReset} where id = ${chat.userId}`
    const res = await send(chat, 'a new week, a new start')
    expect(res.status).toBe(200)
    expect((await res.json()).messageLimit).toEqual({ limit: 5, count: 1, resetAt: new Date(oldReset.getTime() + 3 * WEEK).toISOString() })
    const after = await allowance(chat)
    expect(after.message_count).toBe(1)
    expect(after.message_reset_at.getTime()).toBe(oldReset.getTime() + 3 * WEEK)
    const self = await app.json('GET', '/self', { cookie: chat.cookie })
    expect(self.body.messageLimit).toEqual({ limit: 5, count: 1, resetAt: after.message_reset_at.toISOString() })
  })

  test('PREMIUM sends without limit and without counting', async () => {
    const chat = await startChat(app)
    await app.ctx.sql`update users set subscription_type = 'PREMIUM', message_limit = 2, message_count = 2,
                      message_reset_at = ${new Date(Date.now() + WEEK)} where id = ${chat.userId}`
    for (const text of ['premium one', 'premium two', 'premium three']) expect((await send(chat, text)).status).toBe(200)
    expect((await allowance(chat)).message_count).toBe(2)
    expect(await userMessages(chat)).toBe(3)
  })
})
