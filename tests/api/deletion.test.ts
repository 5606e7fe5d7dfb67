// After an account is deleted, nothing of the person is left: every column of every table in the catalogue (read at
// run time, so a table added later is covered without touching this test) is cast to text and searched for their
// id, email and words, and the files folder is searched by name and content. Payment records stay, without them.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { fullAccount, type FullAccount } from '../helpers/fullAccount'
import { RETAINED_PAYMENT_FIELDS } from '../../api/self/account'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
}, 60_000)
afterAll(() => app?.close())

interface Trace {
  place: string
  needle: string
}

/** Every (table, column) of the public schema where any needle appears, as text. */
async function databaseTraces(needles: string[]): Promise<Trace[]> {
  const columns = await app.ctx.sql<{ table_name: string; column_name: string }[]>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`
  expect(columns.length).toBeGreaterThan(100)
  const found: Trace[] = []
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const [row] = await app.ctx.sql.unsafe(
        `select count(*)::int as n from "${table_name}" where strpos(lower("${column_name}"::text), lower($1)) > 0`,
        [needle],
      )
      if (row.n > 0) found.push({ place: `${table_name}.${column_name}`, needle })
    }
  }
  return found
}

function walk(dir: string): string[] {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
}

/** Files under the data folder whose path or bytes hold a needle. */
function fileTraces(needles: string[]): Trace[] {
  const root = app.cfg.dataDir
  const found: Trace[] = []
  for (const path of walk(root)) {
    const name = relative(root, path)
    const bytes = readFileSync(path).toString('latin1').toLowerCase()
    for (const needle of needles)
      if (name.toLowerCase().includes(needle.toLowerCase()) || bytes.includes(needle.toLowerCase())) found.push({ place: name, needle })
  }
  return found
}

const needlesOf = (p: FullAccount) => [p.userId, p.email, ...Object.values(p.secrets)]

/** Leaves traces outside the person's own rows too: a payment, staff audit, sign-in counters and mail. */
async function touchEverything(p: FullAccount) {
  const merchantTradeNo = `T${Date.now()}${Math.floor(Math.random() * 1000)}`
  await app.ctx.sql`
    insert into payment_orders (merchant_trade_no, user_id, plan_id, kind, amount_twd, period_type, status, paid_at)
    values (${merchantTradeNo}, ${p.userId}, 'subscriptionMonthly', 'one-time', 29, 'M', 'paid', now())`
  await app.ctx.sql`
    insert into payment_notifications (kind, merchant_trade_no, user_id, fields, verified, outcome)
    values ('return', ${merchantTradeNo}, ${p.userId},
      ${app.ctx.sql.json({ MerchantTradeNo: merchantTradeNo, TradeAmt: '29', RtnCode: '1', CustomField1: p.userId, card4no: '4242', RtnMsg: p.email })},
      true, 'paid')`
  const admin = await app.makeUser({ role: 'ADMIN' })
  const adminCookie = await app.signIn(admin.email, admin.password)
  const changed = await app.json('PATCH', `/users/${p.userId}`, { cookie: adminCookie, body: { isEmailVerified: false } })
  expect(changed.status).toBe(200)
  await app.json('POST', '/auth/login/credential', { body: { username: p.email, password: 'wrong-Passw0rd!', isWeb: true } })
  await app.ctx.sendMail({ to: p.email, subject: `Hello ${p.secrets.name}`, text: p.secrets.message })
  const exported = await app.json('POST', '/self/data-exports', { cookie: p.cookie })
  expect(exported.status).toBe(202)
  await vi.waitFor(async () => expect((await app.json('GET', '/self/data-exports/latest', { cookie: p.cookie })).body.status).toBe('READY'), {
    timeout: 30_000,
    interval: 50,
  })
  return merchantTradeNo
}

describe('deleting an account leaves nothing of the person', () => {
  test('DELETE /self: no table, column or file holds their id, email or words; the payment stays, anonymous', async () => {
    const person = await fullAccount(app)
    const bystander = await fullAccount(app)
    const merchantTradeNo = await touchEverything(person)
    const needles = needlesOf(person)

    // The search finds what it is looking for: before deletion, the traces are everywhere.
    const before = await databaseTraces(needles)
    const places = new Set(before.map((t) => t.place.split('.')[0]))
    for (const table of ['users', 'messages', 'message_feedbacks', 'memories', 'conversations', 'files', 'payment_orders',
      'payment_notifications', 'audit_log', 'attempt_counts', 'mail_outbox', 'data_exports', 'sessions', 'user_identities'])
      expect(places, table).toContain(table)
    const filesBefore = fileTraces(needles)
    expect(filesBefore.some((t) => t.needle === person.secrets.image)).toBe(true)
    expect(filesBefore.some((t) => t.needle === person.userId)).toBe(true)

    const deleted = await app.json('DELETE', '/self', { cookie: person.cookie })
    expect(deleted.status).toBe(200)

    expect(await databaseTraces(needles)).toEqual([])
    expect(fileTraces(needles)).toEqual([])

    // Bookkeeping keeps the order and what the law asks of the notification, naming no one.
    const [order] = await app.ctx.sql`select user_id, amount_twd, status from payment_orders where merchant_trade_no = ${merchantTradeNo}`
    expect(order).toEqual({ user_id: null, amount_twd: 29, status: 'paid' })
    const [notice] = await app.ctx.sql`select user_id, fields from payment_notifications where merchant_trade_no = ${merchantTradeNo}`
    expect(notice.user_id).toBeNull()
    expect(notice.fields).toEqual({ MerchantTradeNo: merchantTradeNo, TradeAmt: '29', RtnCode: '1' })
    expect(Object.keys(notice.fields).every((k) => RETAINED_PAYMENT_FIELDS.includes(k))).toBe(true)
    const [audit] = await app.ctx.sql`select subject_email from audit_log where subject_id is null order by created_at desc limit 1`
    expect(audit.subject_email).toBe('deleted account')

    // The session is gone with the account, and someone else's data is untouched.
    expect((await app.json('GET', '/self', { cookie: person.cookie })).status).toBe(401)
    const others = await databaseTraces([bystander.secrets.message, bystander.secrets.memory])
    expect(others.map((t) => t.place)).toEqual(expect.arrayContaining(['messages.text', 'memories.text']))
    expect(fileTraces([bystander.secrets.image])).toHaveLength(1)
  }, 180_000)

  test('an admin deleting a user leaves nothing either', async () => {
    const person = await fullAccount(app)
    await touchEverything(person)
    const admin = await app.makeUser({ role: 'ADMIN' })
    const cookie = await app.signIn(admin.email, admin.password)
    expect((await app.json('DELETE', `/users/${person.userId}`, { cookie })).status).toBe(200)
    expect(await databaseTraces(needlesOf(person))).toEqual([])
    expect(fileTraces(needlesOf(person))).toEqual([])
  }, 180_000)
})
