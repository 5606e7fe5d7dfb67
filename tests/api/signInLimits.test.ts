// Sign-in limits that an attacker cannot turn against the person they attack.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'
import { LIMITS } from '../../api/auth/signInLimits'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

let n = 0
const address = () => `198.51.${Math.floor(Math.random() * 250)}.${++n % 250}`
const login = (username: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  app.json('POST', '/auth/login/credential', { body: { username, password, isWeb: true }, ip, headers })

describe('credential sign-in limits', () => {
  test('five wrong passwords from one source lock that source out, not the real admin', async () => {
    const admin = await app.makeUser({ role: 'ADMIN' })
    const attacker = address()
    for (let i = 0; i < 5; i++) expect((await login(admin.email, `Wrong-${i}-pass!`, attacker)).status).toBe(401)
    const locked = await login(admin.email, admin.password, attacker)
    expect(locked.status).toBe(429)
    expect(locked.body).toEqual({ statusCode: 429, error: 'TooManyRequests', message: 'Too many failed sign-in attempts, please try again in 15 minutes' })
    // The admin, from wherever they are, still gets in.
    const real = await login(admin.email, admin.password, address())
    expect(real.status).toBe(200)
    expect(real.body.user.role).toBe('ADMIN')
  })

  test('while an account is attacked, a source that failed on it is refused; one it signed in from before keeps a few tries', async () => {
    const user = await app.makeUser({})
    const home = address()
    expect((await login(user.email, user.password, home)).status).toBe(200)
    for (let i = 0; i < 8; i++) await login(user.email, 'Wrong-pass-1!', address())
    // A typo at home does not lock the person out...
    expect((await login(user.email, 'Typo-pass-1!', home)).status).toBe(401)
    expect((await login(user.email, user.password, home)).status).toBe(200)
    // ...but a stranger's second guess is refused.
    const stranger = address()
    expect((await login(user.email, 'Guess-pass-1!', stranger)).status).toBe(401)
    expect((await login(user.email, 'Guess-pass-2!', stranger)).status).toBe(429)
  })

  test('under an attack from many sources, only sources the account signed in from before are let through', async () => {
    const user = await app.makeUser({})
    const home = address()
    expect((await login(user.email, user.password, home)).status).toBe(200)
    for (let i = 0; i < LIMITS.knownSourcesOnly; i++) expect((await login(user.email, `Wrong-${i}-pass!`, address())).status).toBe(401)
    expect((await login(user.email, 'Another-guess-1!', address())).status).toBe(429)
    expect((await login(user.email, user.password, home)).status).toBe(200)
  })

  test('one source failing over many accounts (spraying) is refused on every account; other sources are not', async () => {
    const sprayer = address()
    for (let i = 0; i < LIMITS.sourceFailures; i++) expect((await login(uniqueEmail('spray'), 'Spring2026!', sprayer)).status).toBe(401)
    const user = await app.makeUser({})
    const refused = await login(user.email, user.password, sprayer)
    expect(refused.status).toBe(429)
    expect(refused.body.message).toBe('Too many sign-in attempts from your network, please try again in 15 minutes')
    expect((await login(user.email, user.password, address())).status).toBe(200)
  })

  test('an X-Forwarded-For header from an untrusted peer changes nothing', async () => {
    const user = await app.makeUser({})
    const attacker = address()
    for (let i = 0; i < 5; i++) await login(user.email, 'Wrong-pass-1!', attacker, { 'x-forwarded-for': address() })
    expect((await login(user.email, user.password, attacker, { 'x-forwarded-for': address() })).status).toBe(429)
  })

  test('behind a trusted proxy, the forwarded client is the source; addresses the client wrote itself are ignored', async () => {
    const proxied = await startTestApp({ TRUSTED_PROXIES: '10.0.0.0/8, loopback' })
    try {
      const user = await proxied.makeUser({})
      const attempt = (password: string, xff: string) =>
        proxied.json('POST', '/auth/login/credential', { body: { username: user.email, password }, ip: '10.1.2.3', headers: { 'x-forwarded-for': xff } })
      const attacker = address()
      // The attacker prepends a fresh address each time; the proxy appends the real one.
      for (let i = 0; i < 5; i++) expect((await attempt('Wrong-pass-1!', `${address()}, ${attacker}`)).status).toBe(401)
      expect((await attempt(user.password, `${address()}, ${attacker}`)).status).toBe(429)
      // The person, behind the same proxy, is a different source.
      expect((await attempt(user.password, address())).status).toBe(200)
      const [session] = await proxied.ctx.sql<{ ip: string }[]>`
        select s.ip from sessions s join users u on u.id = s.user_id where u.email = ${user.email} order by s.created_at desc limit 1`
      expect(session.ip).not.toBe('10.1.2.3')
    } finally {
      await proxied.close()
    }
  })

  test.skipIf(!process.env.DATABASE_URL)('the limits hold across API processes sharing the database', async () => {
    const other = await startTestApp()
    try {
      const user = await app.makeUser({})
      const attacker = address()
      for (let i = 0; i < 3; i++) await login(user.email, 'Wrong-pass-1!', attacker)
      for (let i = 0; i < 2; i++)
        await other.json('POST', '/auth/login/credential', { body: { username: user.email, password: 'Wrong-pass-1!' }, ip: attacker })
      expect((await login(user.email, user.password, attacker)).status).toBe(429)
    } finally {
      await other.close()
    }
  })
})

describe('credential sign-in limits under concurrency', () => {
  test('wrong passwords sent at the same moment from one source: exactly five are judged, the rest refused', async () => {
    const admin = await app.makeUser({ role: 'ADMIN' })
    const attacker = address()
    const tries = await Promise.all(Array.from({ length: 24 }, (_, i) => login(admin.email, `Wrong-${i}-pass!`, attacker)))
    const statuses = tries.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.accountGuard)
    expect(statuses.filter((s) => s === 429)).toHaveLength(24 - LIMITS.accountGuard)
    // Refusals were not counted against the account: the real admin, from elsewhere, still gets in.
    expect((await login(admin.email, admin.password, address())).status).toBe(200)
  })

  test('spraying many accounts at once from one source stops exactly at the source limit', async () => {
    const sprayer = address()
    const tries = await Promise.all(
      Array.from({ length: LIMITS.sourceFailures + 15 }, () => login(uniqueEmail('burst'), 'Spring2026!', sprayer)),
    )
    expect(tries.filter((r) => r.status === 401)).toHaveLength(LIMITS.sourceFailures)
    expect(tries.filter((r) => r.status === 429)).toHaveLength(15)
  })

  test('a right password sent among wrong ones is not held against the source', async () => {
    const user = await app.makeUser({})
    const home = address()
    const tries = await Promise.all([
      ...Array.from({ length: 3 }, (_, i) => login(user.email, `Typo-${i}-pass!`, home)),
      login(user.email, user.password, home),
    ])
    expect(tries.map((r) => r.status).sort()).toEqual([200, 401, 401, 401])
    // Three failures and a success: the success forgave this source's failures, and took itself back.
    const [count] = await app.ctx.sql<{ count: number }[]>`select count from attempt_counts where key = ${`signin-acct:${user.email}`}`
    expect(count.count).toBe(3)
  })
})

describe('Google sign-in limits', () => {
  async function idToken(email: string) {
    return (await app.json('POST', '/auth/dev/token', { body: { email, name: 'G' } })).body.idToken as string
  }
  const google = (token: string, ip: string) => app.json('POST', '/auth/login/oauth', { body: { idToken: token, strategy: 'google', isWeb: true }, ip })

  test('a burst of sign-ins from one source stops at the limit, and no session is made past it', async () => {
    const source = address()
    const tokens = await Promise.all(Array.from({ length: LIMITS.oauthPerSource + 5 }, () => idToken(uniqueEmail('burst'))))
    const statuses = await Promise.all(tokens.map((t) => google(t, source)))
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(LIMITS.oauthPerSource)
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(5)
    // Invalid tokens count too, so the verifier cannot be hammered either.
    expect((await google('not-a-token', source)).status).toBe(429)
    expect((await google(await idToken(uniqueEmail('other')), address())).status).toBe(200)
  })

  test('repeated sign-ins into one account are limited, from any source', async () => {
    const email = uniqueEmail('repeat')
    const token = await idToken(email)
    for (let i = 0; i < LIMITS.oauthPerAccount; i++) expect((await google(token, address())).status).toBe(200)
    const [{ count }] = await app.ctx.sql<{ count: number }[]>`
      select count(*)::int as count from sessions s join users u on u.id = s.user_id where u.email = ${email}`
    expect((await google(token, address())).status).toBe(429)
    const [{ count: after }] = await app.ctx.sql<{ count: number }[]>`
      select count(*)::int as count from sessions s join users u on u.id = s.user_id where u.email = ${email}`
    expect(after).toBe(count)
  })
})
