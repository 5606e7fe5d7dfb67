// Staff powers over how a person signs in: a Google-linked account never opens with a password, and unlinking
// or setting a password is recorded for the admin console and mailed to the person.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'

let app: TestApp
let admin: string
let adminEmail: string
beforeAll(async () => {
  app = await startTestApp()
  const a = await app.makeUser({ role: 'ADMIN' })
  adminEmail = a.email
  admin = await app.signIn(a.email, a.password)
})
afterAll(() => app?.close())

const patch = (id: string, body: unknown) => app.json('PATCH', `/users/${id}`, { cookie: admin, body })
const login = (username: string, password: string) => app.json('POST', '/auth/login/credential', { body: { username, password, isWeb: true } })
const mailsTo = (email: string) =>
  app.ctx.sql<{ subject: string; body_text: string }[]>`select subject, body_text from mail_outbox where to_address = ${email} order by id`

describe('Google-linked accounts and passwords', () => {
  test('a password set by staff does not open a Google-linked account', async () => {
    const email = uniqueEmail('google')
    const { user, cookie } = await app.signUp(email, 'Gina')
    await app.json('POST', '/chatbots/conversations', { cookie, body: { name: 'private' } })
    expect((await patch(user.id, { password: 'Staff-set-passw0rd!' })).status).toBe(200)
    const attempt = await login(email, 'Staff-set-passw0rd!')
    expect(attempt.status).toBe(401)
    expect(attempt.body).toEqual({ statusCode: 401, error: 'IsLinkedToOAuthAccount', message: 'This account signs in with Google' })
    expect(attempt.res.headers.getSetCookie()).toEqual([])
    // Whatever password is tried, the answer is the same.
    expect((await login(email, 'Anything-else-1!')).body.error).toBe('IsLinkedToOAuthAccount')
  })

  test('an account with a password that later signs in with Google is marked linked and refuses its old password', async () => {
    const u = await app.makeUser({})
    expect((await login(u.email, u.password)).status).toBe(200)
    await app.signUp(u.email)
    const [row] = await app.ctx.sql<{ is_linked_to_oauth_account: boolean }[]>`select is_linked_to_oauth_account from users where id = ${u.id}`
    expect(row.is_linked_to_oauth_account).toBe(true)
    expect((await login(u.email, u.password)).body.error).toBe('IsLinkedToOAuthAccount')
  })

  test('unlinked by staff, then signing in with Google again links it again', async () => {
    const email = uniqueEmail('relink')
    const { user } = await app.signUp(email)
    await patch(user.id, { isLinkedToOAuthAccount: false })
    await app.signUp(email)
    const [row] = await app.ctx.sql<{ is_linked_to_oauth_account: boolean }[]>`select is_linked_to_oauth_account from users where id = ${user.id}`
    expect(row.is_linked_to_oauth_account).toBe(true)
  })

  test('unlinking and setting a password are in the audit log, and the person is mailed of each', async () => {
    const email = uniqueEmail('audited')
    const { user } = await app.signUp(email, 'Avery')
    expect((await patch(user.id, { isLinkedToOAuthAccount: false })).status).toBe(200)
    expect((await patch(user.id, { password: 'Staff-set-passw0rd!' })).status).toBe(200)
    // Now, and only now, the spec's powers have opened the account to a password.
    expect((await login(email, 'Staff-set-passw0rd!')).status).toBe(200)

    const log = await app.json('GET', '/users/audit-log?limit=200', { cookie: admin })
    expect(log.status).toBe(200)
    const mine = log.body.entries.filter((e: any) => e.subjectEmail === email)
    expect(mine.map((e: any) => e.action)).toEqual(['password-set', 'unlinked-oauth'])
    for (const e of mine) {
      expect(e.actorEmail).toBe(adminEmail)
      expect(Object.keys(e).sort()).toEqual(['action', 'actorEmail', 'createdAt', 'id', 'subjectEmail'])
      expect(Date.now() - Date.parse(e.createdAt)).toBeLessThan(60_000)
    }
    const mails = await mailsTo(email)
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Ideal Self account was unlinked from Google',
      'A new password was set on your Ideal Self account',
    ])
    expect(mails[1].body_text).toMatch(/^Hi Avery,/)
    // The password itself is never mailed or logged.
    expect(mails.map((m) => m.body_text).join()).not.toContain('Staff-set-passw0rd!')
    expect(JSON.stringify(log.body)).not.toContain('Staff-set-passw0rd!')
  })

  test('an email change mails the old address; other changes are logged without mail', async () => {
    const u = await app.makeUser({ name: 'Old' })
    const fresh = uniqueEmail('new')
    await patch(u.id, { email: fresh })
    await patch(u.id, { isSuspended: true })
    await patch(u.id, { isSuspended: false })
    expect((await mailsTo(u.email)).map((m) => m.subject)).toEqual(['The email of your Ideal Self account was changed'])
    expect(await mailsTo(fresh)).toEqual([])
    const log = (await app.json('GET', '/users/audit-log?limit=200', { cookie: admin })).body.entries
    expect(log.filter((e: any) => e.subjectEmail === u.email || e.subjectEmail === fresh).map((e: any) => e.action)).toEqual([
      'unsuspended',
      'suspended',
      'email-changed',
    ])
  })

  test('deleting a user is logged without their email: nothing of a deleted person stays', async () => {
    const u = await app.makeUser({})
    expect((await app.json('DELETE', `/users/${u.id}`, { cookie: admin })).status).toBe(200)
    const log = (await app.json('GET', '/users/audit-log', { cookie: admin })).body.entries
    expect(log.some((e: any) => e.subjectEmail === u.email)).toBe(false)
    expect(log.find((e: any) => e.subjectEmail === 'deleted account' && e.actorEmail === adminEmail)?.action).toBe('deleted')
  })

  test('only an ADMIN reads the audit log', async () => {
    const regular = (await app.signUp()).cookie
    const dev = await app.makeUser({ role: 'DEVELOPER' })
    expect((await app.json('GET', '/users/audit-log', { cookie: regular })).status).toBe(403)
    expect((await app.json('GET', '/users/audit-log', { cookie: await app.signIn(dev.email, dev.password) })).status).toBe(403)
    expect((await app.json('GET', '/users/audit-log')).status).toBe(401)
  })
})
