import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, cookieOf, type TestApp } from '../helpers/testApp'
import { ensureFirstAdmin } from '../../api/users/firstAdmin'
import { passwordProblem } from '../../api/auth/passwords'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const login = (username: string, password: string) =>
  app.json('POST', '/auth/login/credential', { body: { username, password, isWeb: true } })

describe('credential sign-in', () => {
  test('an installation without an ADMIN gets one, with a generated password printed once', async () => {
    // Inside a transaction that is rolled back, so other suites sharing the database keep their admins.
    const rollback = new Error('rollback')
    const logs: string[] = []
    await app.ctx.sql
      .begin(async (tx) => {
        await tx`update users set role = 'REGULAR' where role = 'ADMIN'`
        const email = uniqueEmail('boss')
        const opts = { email, password: null, messageLimit: 100, period: 'week' as const, log: (s: string) => logs.push(s) }
        await ensureFirstAdmin(tx, opts)
        await ensureFirstAdmin(tx, opts)
        const [row] = await tx<{ role: string; password_hash: string }[]>`select role, password_hash from users where email = ${email}`
        expect(row.role).toBe('ADMIN')
        expect(logs).toHaveLength(1)
        const password = logs[0].match(/ \/ (\S+)/)![1]
        expect(passwordProblem(password)).toBeNull()
        expect(await Bun.password.verify(password, row.password_hash)).toBe(true)
        throw rollback
      })
      .catch((e) => {
        if (e !== rollback) throw e
      })
  })

  test('ADMIN_PASSWORD signs the first admin in', async () => {
    const fresh = await startTestApp({ DATABASE_URL: '' })
    try {
      const cookie = await fresh.signIn(fresh.cfg.adminEmail, 'First-admin-1!')
      expect((await fresh.json('GET', '/self', { cookie })).body.role).toBe('ADMIN')
    } finally {
      await fresh.close()
    }
  })

  test('email is case-insensitive; wrong password and unknown user give the same 401', async () => {
    const u = await app.makeUser({})
    expect((await login(u.email.toUpperCase(), u.password)).status).toBe(200)
    const wrong = await login(u.email, 'Nope-nope-1!')
    const unknown = await login(uniqueEmail('nobody'), 'Nope-nope-1!')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body.error).toBe('InvalidCredentials')
    expect(unknown.body.error).toBe('InvalidCredentials')
  })

  test('an account that signs in with Google gets IsLinkedToOAuthAccount', async () => {
    const email = uniqueEmail('linked')
    await app.signUp(email)
    const { status, body } = await login(email, 'Whatever-1!')
    expect(status).toBe(401)
    expect(body.error).toBe('IsLinkedToOAuthAccount')
  })

  test('a suspended account gets AccountSuspended, and suspension ends its existing session', async () => {
    const u = await app.makeUser({})
    const cookie = await app.signIn(u.email, u.password)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(200)
    await app.ctx.sql`update users set is_suspended = true where id = ${u.id}`
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    const { status, body } = await login(u.email, u.password)
    expect(status).toBe(401)
    expect(body.error).toBe('AccountSuspended')
  })

  test('repeated failures for one account are throttled', async () => {
    const u = await app.makeUser({})
    for (let i = 0; i < 5; i++) expect((await login(u.email, 'Wrong-pass-1!')).status).toBe(401)
    const blocked = await login(u.email, u.password)
    expect(blocked.status).toBe(429)
  })

  test('missing fields get 400 with the required-field texts', async () => {
    const r = await app.json('POST', '/auth/login/credential', { body: { username: '', password: 'x' } })
    expect(r.status).toBe(400)
    expect(r.body.message).toBe('username is required')
    const r2 = await app.json('POST', '/auth/login/credential', { body: { username: 'a@b.co', password: '' } })
    expect(r2.body.message).toBe('password is required')
  })

  test('sign-out ends the session on the next request', async () => {
    const { cookie } = await app.signUp()
    expect((await app.json('GET', '/self', { cookie })).status).toBe(200)
    const out = await app.call('GET', '/auth/sign-out', { cookie })
    expect(out.status).toBe(200)
    expect(cookieOf(out)).toMatch(/session=;?/)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
  })
})

describe('password reset', () => {
  async function requestReset(email: string, redirectUrl = `${app.cfg.publicUrl}/admin/reset-password`) {
    return app.json('POST', '/auth/forgot-password', { body: { email, redirectUrl } })
  }
  async function lastLinkFor(email: string) {
    const [mail] = await app.ctx.sql<{ body_text: string }[]>`
      select body_text from mail_outbox where to_address = ${email} order by id desc limit 1`
    const link = mail?.body_text.match(/https?:\/\/\S+/)?.[0]
    return link ? new URL(link) : null
  }

  test('the answer is the same whether or not the email exists; only a real account gets mail', async () => {
    const u = await app.makeUser({})
    const known = await requestReset(u.email)
    const unknown = await requestReset(uniqueEmail('ghost'))
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.body).toEqual(unknown.body)
    expect(known.body.message).toBe(
      'Password reset requested — if the email is registered, you will receive a password reset link in your email',
    )
    expect(await lastLinkFor(u.email)).not.toBeNull()
  })

  test('invalid email and foreign redirect are refused', async () => {
    expect((await requestReset('not-an-email')).body.message).toBe('must be an valid email')
    const foreign = await requestReset('a@b.co', 'https://evil.example.com/reset')
    expect(foreign.status).toBe(400)
    expect(foreign.body.message).toBe(`redirectUrl must be a page of this app at its PUBLIC_URL, ${new URL(app.cfg.publicUrl).origin}`)
  })

  test('the mailed link is on PUBLIC_URL whether the form named a path or another name of this machine', async () => {
    const base = new URL(app.cfg.publicUrl)
    const loopback = `${base.protocol}//127.0.0.1:${base.port}/admin/reset-password`
    for (const redirectUrl of ['/admin/reset-password', loopback]) {
      const u = await app.makeUser({})
      expect((await requestReset(u.email, redirectUrl)).status).toBe(200)
      const link = (await lastLinkFor(u.email))!
      expect(link.origin).toBe(base.origin)
      expect(link.pathname).toBe('/admin/reset-password')
    }
  })

  test('the token verifies, sets a strong password once, and cannot be reused', async () => {
    const u = await app.makeUser({})
    await requestReset(u.email)
    const link = (await lastLinkFor(u.email))!
    expect(link.pathname).toBe('/admin/reset-password')
    const token = link.searchParams.get('token')!
    const check = await app.json('GET', `/auth/verify-reset-password-token?token=${token}`)
    expect(check.status).toBe(200)
    const weak = await app.json('POST', '/auth/reset-password', { body: { password: 'weakpass' }, headers: { authorization: `Bearer ${token}` } })
    expect(weak.status).toBe(400)
    const ok = await app.json('POST', '/auth/reset-password', { body: { password: 'New-Passw0rd!' }, headers: { authorization: `Bearer ${token}` } })
    expect(ok.status).toBe(200)
    expect((await login(u.email, 'New-Passw0rd!')).status).toBe(200)
    expect((await login(u.email, u.password)).status).toBe(401)
    const reuse = await app.json('POST', '/auth/reset-password', { body: { password: 'Other-Passw0rd!', token } })
    expect(reuse.status).toBe(401)
    expect((await app.json('GET', `/auth/verify-reset-password-token?token=${token}`)).status).toBe(401)
  })

  test('an expired token is refused', async () => {
    const u = await app.makeUser({})
    await requestReset(u.email)
    const token = (await lastLinkFor(u.email))!.searchParams.get('token')!
    await app.ctx.sql`update password_reset_tokens set expires_at = now() - interval '1 minute'
                      where user_id = ${u.id}`
    expect((await app.json('GET', `/auth/verify-reset-password-token?token=${token}`)).status).toBe(401)
    expect((await app.json('POST', '/auth/reset-password', { body: { password: 'New-Passw0rd!', token } })).status).toBe(401)
  })
})
