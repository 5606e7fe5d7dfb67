import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
)

function imageForm(bytes: Uint8Array, name = 'a.png', type = 'image/png') {
  const form = new FormData()
  form.append('file', new File([bytes], name, { type }))
  return form
}

describe('GET /self', () => {
  test('401 when signed out, with the one error shape', async () => {
    const { status, body } = await app.json('GET', '/self')
    expect(status).toBe(401)
    expect(body).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) })
  })

  test('returns every field of the spec User', async () => {
    const { cookie } = await app.signUp(undefined, 'Mei')
    const { body } = await app.json('GET', '/self', { cookie })
    expect(body).toMatchObject({
      name: 'Mei',
      role: 'REGULAR',
      profileImage: null,
      subscription: { type: 'FREEMIUM', autoRenew: false, expiresAt: null, provider: null },
      messageLimit: { limit: 100, count: 0 },
      onboardingData: { currentStep: null, isCompleted: false },
      isSuspended: false,
      isEmailVerified: true,
      isLinkedToOAuthAccount: true,
    })
    expect(new Date(body.messageLimit.resetAt).getTime()).toBeGreaterThan(Date.now())
  })
})

describe('PATCH /self/profile', () => {
  test('changes the name; an empty name is refused with "name is required"', async () => {
    const { cookie } = await app.signUp()
    const ok = await app.json('PATCH', '/self/profile', { cookie, body: { name: '  Ari  ' } })
    expect(ok.body.name).toBe('Ari')
    const bad = await app.json('PATCH', '/self/profile', { cookie, body: { name: '   ' } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('name is required')
  })

  test('only an ADMIN may change an email', async () => {
    const { cookie } = await app.signUp()
    expect((await app.json('PATCH', '/self/profile', { cookie, body: { email: 'new@example.com' } })).status).toBe(403)
    const admin = await app.makeUser({ role: 'ADMIN' })
    const adminCookie = await app.signIn(admin.email, admin.password)
    const bad = await app.json('PATCH', '/self/profile', { cookie: adminCookie, body: { email: 'nope' } })
    expect(bad.body.message).toBe('must be a valid email')
    const newEmail = `renamed-${Date.now()}@example.com`
    const ok = await app.json('PATCH', '/self/profile', { cookie: adminCookie, body: { email: newEmail } })
    expect(ok.body.email).toBe(newEmail)
  })
})

describe('developer tools on /self', () => {
  test('REGULAR users cannot edit their subscription or allowance', async () => {
    const { cookie } = await app.signUp()
    expect((await app.json('PATCH', '/self/subscription', { cookie, body: { type: 'PREMIUM' } })).status).toBe(403)
    expect((await app.json('PATCH', '/self/message-limit', { cookie, body: { count: 0 } })).status).toBe(403)
  })

  test('a DEVELOPER edits only the fields sent, within 0..1000', async () => {
    const dev = await app.makeUser({ role: 'DEVELOPER' })
    const cookie = await app.signIn(dev.email, dev.password)
    const sub = await app.json('PATCH', '/self/subscription', {
      cookie,
      body: { type: 'PREMIUM', expiresAt: '2030-01-01T00:00:00.000Z', provider: 'ECPAY' },
    })
    expect(sub.body.subscription).toEqual({ type: 'PREMIUM', autoRenew: false, expiresAt: '2030-01-01T00:00:00.000Z', provider: 'ECPAY' })
    const lim = await app.json('PATCH', '/self/message-limit', { cookie, body: { count: 10 } })
    expect(lim.body.messageLimit).toMatchObject({ limit: 100, count: 10 })
    const tooBig = await app.json('PATCH', '/self/message-limit', { cookie, body: { limit: 1001 } })
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.message).toBe('limit must be an integer from 0 to 1000')
    expect((await app.json('PATCH', '/self/message-limit', { cookie, body: { count: -1 } })).status).toBe(400)
  })
})

describe('onboarding and location', () => {
  test('saves a known step, refuses an unknown one, and resets', async () => {
    const { cookie } = await app.signUp()
    const ok = await app.json('PATCH', '/self/onboarding', { cookie, body: { currentStep: 'name-confirmation' } })
    expect(ok.body.onboardingData).toEqual({ currentStep: 'name-confirmation', isCompleted: false })
    expect((await app.json('PATCH', '/self/onboarding', { cookie, body: { currentStep: 'step-99' } })).status).toBe(400)
    const done = await app.json('PATCH', '/self/onboarding', { cookie, body: { isCompleted: true } })
    expect(done.body.onboardingData).toEqual({ currentStep: 'name-confirmation', isCompleted: true })
    const reset = await app.json('DELETE', '/self/onboarding', { cookie })
    expect(reset.body.onboardingData).toEqual({ currentStep: null, isCompleted: false })
  })

  test('geo-location is range-checked', async () => {
    const { cookie } = await app.signUp()
    expect((await app.json('PUT', '/self/geo-location', { cookie, body: { latitude: 91, longitude: 0 } })).status).toBe(400)
    expect((await app.json('PUT', '/self/geo-location', { cookie, body: { latitude: 0, longitude: -181 } })).status).toBe(400)
    const ok = await app.json('PUT', '/self/geo-location', { cookie, body: { latitude: 25.03, longitude: 121.56 } })
    expect(ok.body.geoLocation).toEqual({ latitude: 25.03, longitude: 121.56 })
  })
})

describe('POST /self/file', () => {
  test('stores an image and serves it to its owner only, with nosniff', async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const up = await app.json('POST', '/self/file', { cookie: a.cookie, form: imageForm(PNG) })
    expect(up.status).toBe(200)
    expect(up.body).toEqual({ id: expect.any(String), url: `/api/v1/files/${up.body.id}`, type: 'image/png' })
    const own = await app.call('GET', `/files/${up.body.id}`, { cookie: a.cookie })
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('image/png')
    expect(own.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(PNG)
    expect((await app.call('GET', `/files/${up.body.id}`, { cookie: b.cookie })).status).toBe(404)
    expect((await app.call('GET', `/files/${up.body.id}`)).status).toBe(401)
  })

  test('judges by content: a script named .png is refused', async () => {
    const { cookie } = await app.signUp()
    const r = await app.json('POST', '/self/file', { cookie, form: imageForm(new TextEncoder().encode('<script>alert(1)</script>'), 'x.png') })
    expect(r.status).toBe(400)
    expect(r.body.message).toMatch(/Only images/)
  })

  test('files larger than the limit are refused', async () => {
    const small = await startTestApp({ UPLOAD_MAX_BYTES: '100' })
    try {
      const { cookie } = await small.signUp()
      const big = new Uint8Array(200)
      big.set(PNG.slice(0, 8))
      const r = await small.json('POST', '/self/file', { cookie, form: imageForm(big) })
      expect(r.status).toBe(400)
    } finally {
      await small.close()
    }
  })
})

describe('DELETE /self', () => {
  test('ADMIN and DEVELOPER cannot delete themselves', async () => {
    for (const role of ['ADMIN', 'DEVELOPER']) {
      const u = await app.makeUser({ role })
      const cookie = await app.signIn(u.email, u.password)
      expect((await app.json('DELETE', '/self', { cookie })).status).toBe(403)
    }
  })

  test('removes every row of the user in every table, and their stored files', async () => {
    const { cookie, user } = await app.signUp()
    const up = await app.json('POST', '/self/file', { cookie, form: imageForm(PNG) })
    const [file] = await app.ctx.sql<{ storage_key: string }[]>`select storage_key from files where id = ${up.body.id}`
    await app.ctx.sql`insert into analytics_events (user_id, event) values (${user.id}, 'test_event')`
    expect(await app.ctx.storage.get(file.storage_key)).not.toBeNull()

    const del = await app.json('DELETE', '/self', { cookie })
    expect(del.status).toBe(200)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    expect(await app.ctx.storage.get(file.storage_key)).toBeNull()

    // Every table with a user_id column (or the users table itself) holds nothing of this user.
    const tables = await app.ctx.sql<{ table_name: string; column_name: string }[]>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name in ('user_id', 'id') and table_name <> 'schema_migrations'`
    for (const { table_name, column_name } of tables) {
      if (column_name === 'id' && table_name !== 'users') continue
      const [row] = await app.ctx.sql`select count(*)::int as n from ${app.ctx.sql(table_name)} where ${app.ctx.sql(column_name)}::text = ${user.id}`
      expect(row.n, `${table_name}.${column_name}`).toBe(0)
    }
  })
})
