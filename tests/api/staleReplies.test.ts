// A reply whose writing process is gone is failed and refunded — on start and by any process that sweeps —
// while a reply still being written is left alone however long it takes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { createReplyWatch } from '../../api/chat/staleReplies'
import { regenerateReply } from '../../api/chat/reviseReply'
import type { ModelProvider } from '../../api/llm/provider'
import { startChat, type ChatSetup } from '../unit/chat/chatFixtures'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

/** What sendMessage leaves behind when its process dies mid-stream: the question and an empty PENDING reply, one transaction, one counted message. */
async function orphanedTurn(chat: ChatSetup, secondsAgo: number) {
  return app.ctx.sql.begin(async (tx) => {
    // The allowance period started before the backdated turn, as it would have.
    await tx`update users set message_count = message_count + 1, message_reset_at = message_reset_at - interval '1 hour' where id = ${chat.userId}`
    const [question] = await tx<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text, created_at)
      values (${chat.conversationId}, ${chat.userId}, 'USER', 'Are you there?', now() - make_interval(secs => ${secondsAgo}))
      returning id`
    const [reply] = await tx<{ id: string }[]>`
      insert into messages (conversation_id, user_id, role, text, status, created_at)
      values (${chat.conversationId}, ${chat.userId}, 'ASSISTANT', '', 'PENDING', now() - make_interval(secs => ${secondsAgo}) + interval '1 microsecond')
      returning id`
    return { questionId: question.id, replyId: reply.id }
  })
}

const countOf = async (userId: string) =>
  (await app.ctx.sql<{ message_count: number }[]>`select message_count from users where id = ${userId}`)[0].message_count

describe('replies whose writer is gone', () => {
  test('are removed with their question and the message is given back; other turns stay', async () => {
    const chat = await startChat(app, { ready: true })
    const kept = await app.json('POST', `${chat.path}/chat?sse=false`, { cookie: chat.cookie, body: { text: 'Hello', currentDateTime: 'Sunday 2026-11-22 10:30:00' } })
    expect(kept.status).toBe(200)
    const orphan = await orphanedTurn(chat, 120)
    const before = await countOf(chat.userId)
    // Test files share the database and every app sweeps: another may hold the row (skip locked) or take it first.
    await app.ctx.replies.sweep()
    await expect.poll(async () => (await app.ctx.sql`select 1 from messages where id = ${orphan.replyId}`).length, { timeout: 5000 }).toBe(0)
    expect(await countOf(chat.userId)).toBe(before - 1)
    const poll = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${orphan.replyId}`, { cookie: chat.cookie })
    expect(poll.status).toBe(404)
    const left = (await app.ctx.sql<{ id: string }[]>`select id from messages where conversation_id = ${chat.conversationId}`).map((r) => r.id)
    expect(left).not.toContain(orphan.questionId)
    expect(left).toContain(kept.body.newUserMessage.id)
    expect(left).toContain(kept.body.newChatbotMessage.id)
  })

  test('a reply younger than the grace period is left alone', async () => {
    const chat = await startChat(app, { ready: true })
    const young = await orphanedTurn(chat, 5)
    await app.ctx.replies.sweep()
    expect(await app.ctx.sql`select 1 from messages where id = ${young.replyId}`).toHaveLength(1)
  })

  test('a reply still marked alive is left alone however old; once its writer stops, it is failed', async () => {
    const chat = await startChat(app, { ready: true })
    const watch = createReplyWatch(app.ctx.sql, { period: 'week', goneMs: 400, heartbeatMs: 100, sweepMs: 60_000 })
    const old = await orphanedTurn(chat, 120)
    let finish!: () => void
    watch.track(old.replyId, new Promise<void>((r) => (finish = r)))
    watch.start()
    try {
      await new Promise((r) => setTimeout(r, 900))
      await watch.sweep()
      expect(await app.ctx.sql`select 1 from messages where id = ${old.replyId}`).toHaveLength(1)
      // The writer ended without saving (its database call failed): the marks stop, and the sweep fails it.
      finish()
      await new Promise((r) => setTimeout(r, 600))
      await watch.sweep()
      expect(await app.ctx.sql`select 1 from messages where id in ${app.ctx.sql([old.replyId, old.questionId])}`).toHaveLength(0)
    } finally {
      await watch.stop()
    }
  })

  test('a reply finished at once leaves no mark behind, however slowly its first mark is written', async () => {
    const chat = await startChat(app, { ready: true })
    const turn = await orphanedTurn(chat, 0)
    // The first mark reaches the database after the reply is done (a busy pool), as it can under load.
    const slow = ((strings: TemplateStringsArray, ...values: unknown[]) =>
      strings.join('').includes('insert into reply_heartbeats')
        ? new Promise((r) => setTimeout(r, 300)).then(() => app.ctx.sql(strings, ...(values as never[])))
        : app.ctx.sql(strings, ...(values as never[]))) as unknown as typeof app.ctx.sql
    const watch = createReplyWatch(slow, { period: 'week' })
    watch.track(turn.replyId, Promise.resolve())
    await watch.stop()
    expect(await app.ctx.sql`select 1 from reply_heartbeats where message_id = ${turn.replyId}`).toHaveLength(0)
    await app.ctx.sql`delete from messages where id in ${app.ctx.sql([turn.replyId, turn.questionId])}`
  })

  test.skipIf(!process.env.DATABASE_URL)('a process that starts fails the replies a stopped one left behind', async () => {
    const chat = await startChat(app, { ready: true })
    const orphan = await orphanedTurn(chat, 300)
    const next = await startTestApp()
    try {
      await expect.poll(async () => (await app.ctx.sql`select 1 from messages where id = ${orphan.replyId}`).length, { timeout: 5000 }).toBe(0)
    } finally {
      await next.close()
    }
  })

  test('a streamed reply is marked alive while it is written and unmarked when saved', async () => {
    const chat = await startChat(app, { ready: true })
    const res = await app.call('POST', `${chat.path}/chat`, {
      cookie: chat.cookie,
      headers: { accept: 'text/event-stream' },
      body: { text: 'Tell me something', currentDateTime: 'Sunday 2026-11-22 10:30:00' },
    })
    const text = await res.text()
    const botId = text.match(/"botMessageId":"([^"]+)"/)![1]
    await expect.poll(async () => (await app.ctx.sql`select 1 from reply_heartbeats where message_id = ${botId}`).length, { timeout: 5000 }).toBe(0)
    const [row] = await app.ctx.sql<{ status: string }[]>`select status from messages where id = ${botId}`
    expect(row.status).toBe('COMPLETE')
  })
})

describe('regenerated replies', () => {
  const say = (chat: ChatSetup) =>
    app.json('POST', `${chat.path}/chat?sse=false`, { cookie: chat.cookie, body: { text: 'Hello', currentDateTime: 'Sunday 2026-11-22 10:30:00' } })
  const backdate = (chat: ChatSetup) =>
    app.ctx.sql`update messages set created_at = created_at - interval '10 minutes' where conversation_id = ${chat.conversationId}`

  test('are marked alive in the transaction that reopens them: another instance never takes one for abandoned', async () => {
    const chat = await startChat(app, { ready: true })
    expect((await say(chat)).status).toBe(200)
    // The old row keeps its old creation time, well past any grace period.
    await backdate(chat)
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    // A model that answers only when told: the reply stays PENDING for as long as the test needs.
    const slow: ModelProvider = {
      ...app.ctx.model.provider,
      async *streamChat() {
        await held
        yield 'A new answer'
      },
    }
    const started = await regenerateReply(
      { sql: app.ctx.sql, storage: app.ctx.storage, provider: slow, limitPeriod: app.ctx.cfg.freeLimitPeriod },
      { userId: chat.userId, conversationId: chat.conversationId, characterId: chat.characterId, currentDateTime: 'Sunday 2026-11-22 10:31:00' },
    )
    // Another instance's sweep, with none of this process's marks in flight (the writer was never tracked here).
    const other = createReplyWatch(app.ctx.sql, { period: 'week', goneMs: 5_000 })
    try {
      expect(await other.sweep()).toBe(0)
      const [row] = await app.ctx.sql<{ status: string; version: number }[]>`select status, version from messages where id = ${started.botMessage.id}`
      expect(row).toEqual({ status: 'PENDING', version: 2 })
    } finally {
      release()
      await started.outcome
      await other.stop()
    }
    const [done] = await app.ctx.sql<{ status: string; text: string }[]>`select status, text from messages where id = ${started.botMessage.id}`
    expect(done.status).toBe('COMPLETE')
  })

  test('when the writer of a regeneration is gone, the reply it replaced comes back and the regeneration is given back', async () => {
    const chat = await startChat(app, { ready: true })
    const first = await say(chat)
    const question = first.body.newUserMessage.id
    const replyId = first.body.newChatbotMessage.id
    const [before] = await app.ctx.sql<{ text: string; help_text: string | null; sources: unknown }[]>`select text, help_text, sources from messages where id = ${replyId}`
    // What regenerateReply leaves behind when its process dies mid-stream: version 1 kept aside, the reply reopened
    // empty as version 2, one more message counted, no writer marking it.
    await app.ctx.sql.begin(async (tx) => {
      await tx`
        insert into message_versions (message_id, version, text, help_text, sources, created_at)
        select id, 1, text, help_text, sources, created_at from messages where id = ${replyId}`
      await tx`update messages set text = '', status = 'PENDING', version = 2 where id = ${replyId}`
      await tx`update users set message_count = message_count + 1 where id = ${chat.userId}`
    })
    await backdate(chat)
    const counted = await countOf(chat.userId)
    // Whichever process sweeps first (test files share the database, and every app sweeps) restores it.
    await app.ctx.replies.sweep()
    // Another app's sweep may hold the row (skip locked) while ours passes it by: wait for whichever commits.
    await expect
      .poll(async () => (await app.ctx.sql<{ status: string }[]>`select status from messages where id = ${replyId}`)[0].status, { timeout: 5000 })
      .toBe('COMPLETE')
    const [after] = await app.ctx.sql<{ text: string; help_text: string | null; sources: unknown; status: string; version: number }[]>`
      select text, help_text, sources, status, version from messages where id = ${replyId}`
    expect(after).toEqual({ ...before, status: 'COMPLETE', version: 1 })
    expect(await app.ctx.sql`select 1 from message_versions where message_id = ${replyId}`).toHaveLength(0)
    expect(await app.ctx.sql`select 1 from messages where id = ${question}`).toHaveLength(1)
    expect(await countOf(chat.userId)).toBe(counted - 1)
    const poll = await app.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${replyId}`, { cookie: chat.cookie })
    expect(poll.body.text).toBe(before.text)
  })
})
