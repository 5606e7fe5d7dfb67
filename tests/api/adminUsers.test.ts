import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'

let app: TestApp
let adminId: string
let admin: string

beforeAll(async () => {
  app = await startTestApp()
  const a = await app.makeUser({ role: 'ADMIN' })
  adminId = a.id
  admin = await app.signIn(a.email, a.password)
})
afterAll(() => app?.close())

const patch = (id: string, body: unknown, cookie = admin) => app.json('PATCH', `/users/${id}`, { cookie, body })

describe('only an ADMIN manages users', () => {
  test('anonymous 401; REGULAR and DEVELOPER 403 on list, change and delete, and nothing changes', async () => {
    const victim = await app.makeUser({})
    const developer = await app.makeUser({ role: 'DEVELOPER' })
    const callers = { REGULAR: (await app.signUp()).cookie, DEVELOPER: await app.signIn(developer.email, developer.password) }
    expect((await app.json('GET', '/users')).status).toBe(401)
    expect((await patch(victim.id, { isSuspended: true }, '')).status).toBe(401)
    for (const [role, cookie] of Object.entries(callers)) {
      expect((await app.json('GET', '/users', { cookie })).status, role).toBe(403)
      expect((await patch(victim.id, { isSuspended: true }, cookie)).status, role).toBe(403)
      expect((await patch(victim.id, { role: 'DEVELOPER' }, cookie)).status, role).toBe(403)
      expect((await app.json('DELETE', `/users/${victim.id}`, { cookie })).status, role).toBe(403)
    }
    const [row] = await app.ctx.sql`select role, is_suspended from users where id = ${victim.id}`
    expect(row).toEqual({ role: 'REGULAR', is_suspended: false })
  })
})

describe('protections of ADMIN accounts', () => {
  test('another ADMIN cannot be suspended, re-roled or deleted, with a clear message', async () => {
    const other = await app.makeUser({ role: 'ADMIN' })
    const suspend = await patch(other.id, { isSuspended: true })
    expect(suspend.status).toBe(403)
    expect(suspend.body.message).toBe('An ADMIN account cannot be suspended')
    const role = await patch(other.id, { role: 'REGULAR' })
    expect(role.status).toBe(403)
    expect(role.body.message).toBe('The role of an ADMIN account cannot be changed')
    const del = await app.json('DELETE', `/users/${other.id}`, { cookie: admin })
    expect(del.status).toBe(403)
    expect(del.body.message).toBe('An ADMIN account cannot be deleted')
    const [row] = await app.ctx.sql`select role, is_suspended from users where id = ${other.id}`
    expect(row).toEqual({ role: 'ADMIN', is_suspended: false })
    // Flags that are not protected may still be set.
    expect((await patch(other.id, { isEmailVerified: false })).body.isEmailVerified).toBe(false)
  })

  test('an ADMIN cannot delete or suspend themself', async () => {
    const del = await app.json('DELETE', `/users/${adminId}`, { cookie: admin })
    expect(del.status).toBe(403)
    expect(del.body.message).toBe('You cannot delete your own account')
    expect((await patch(adminId, { isSuspended: true })).status).toBe(403)
    expect((await app.json('GET', '/self', { cookie: admin })).status).toBe(200)
  })

  test('nobody can be made ADMIN here; the role toggles only between REGULAR and DEVELOPER', async () => {
    const u = await app.makeUser({})
    const up = await patch(u.id, { role: 'ADMIN' })
    expect(up.status).toBe(400)
    expect(up.body.message).toBe('role must be REGULAR or DEVELOPER')
    expect((await patch(u.id, { role: 'DEVELOPER' })).body.role).toBe('DEVELOPER')
    expect((await patch(u.id, { role: 'REGULAR' })).body.role).toBe('REGULAR')
  })
})

describe('PATCH /users/{id}', () => {
  test('exactly one change per call; unknown users are 404', async () => {
    const u = await app.makeUser({})
    expect((await patch(u.id, {})).status).toBe(400)
    const two = await patch(u.id, { isSuspended: true, isEmailVerified: false })
    expect(two.status).toBe(400)
    expect(two.body.message).toBe('Send exactly one of role, isLinkedToOAuthAccount, isSuspended, isEmailVerified, password, email')
    expect((await patch(crypto.randomUUID(), { isEmailVerified: true })).status).toBe(404)
    expect((await patch('42', { isEmailVerified: true })).status).toBe(404)
  })

  test('suspension ends the sessions the user has, and sign-in is refused until it is lifted', async () => {
    const u = await app.makeUser({})
    const cookie = await app.signIn(u.email, u.password)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(200)
    const res = await patch(u.id, { isSuspended: true })
    expect(res.body.isSuspended).toBe(true)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    const [{ live }] = await app.ctx.sql`select count(*)::int as live from sessions where user_id = ${u.id} and revoked_at is null`
    expect(live).toBe(0)
    const again = await app.json('POST', '/auth/login/credential', { body: { username: u.email, password: u.password } })
    expect(again.body.error).toBe('AccountSuspended')
    await patch(u.id, { isSuspended: false })
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    expect((await app.json('GET', '/self', { cookie: await app.signIn(u.email, u.password) })).status).toBe(200)
  })

  test('a new password must be strong; it replaces the old one and signs the user out', async () => {
    const u = await app.makeUser({})
    const cookie = await app.signIn(u.email, u.password)
    const weak = await patch(u.id, { password: 'password' })
    expect(weak.status).toBe(400)
    expect(weak.body.message).toMatch(/^Password must/)
    expect((await patch(u.id, { password: 'New-passw0rd!' })).status).toBe(200)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    expect((await app.call('POST', '/auth/login/credential', { body: { username: u.email, password: u.password } })).status).toBe(401)
    expect(await app.signIn(u.email, 'New-passw0rd!')).toBeTruthy()
  })

  test('an ADMIN setting their own password stays signed in', async () => {
    const a = await app.makeUser({ role: 'ADMIN' })
    const cookie = await app.signIn(a.email, a.password)
    expect((await patch(a.id, { password: 'Other-passw0rd!' }, cookie)).status).toBe(200)
    expect((await app.json('GET', '/self', { cookie })).status).toBe(200)
  })

  test('email: "not a valid email", 409 when taken, stored in lower case', async () => {
    const u = await app.makeUser({})
    const other = await app.makeUser({})
    const bad = await patch(u.id, { email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('not a valid email')
    expect((await patch(u.id, { email: other.email.toUpperCase() })).status).toBe(409)
    const fresh = uniqueEmail('renamed')
    expect((await patch(u.id, { email: ` ${fresh.toUpperCase()} ` })).body.email).toBe(fresh)
  })

  test('flags: email verified, and unlinking Google removes the linked identity', async () => {
    const { user } = await app.signUp()
    expect(user.isLinkedToOAuthAccount).toBe(true)
    expect((await patch(user.id, { isEmailVerified: false })).body.isEmailVerified).toBe(false)
    const unlinked = await patch(user.id, { isLinkedToOAuthAccount: false })
    expect(unlinked.body.isLinkedToOAuthAccount).toBe(false)
    expect(await app.ctx.sql`select 1 from user_identities where user_id = ${user.id}`).toHaveLength(0)
    expect((await patch(user.id, { isLinkedToOAuthAccount: true })).body.isLinkedToOAuthAccount).toBe(true)
  })
})

describe('DELETE /users/{id}', () => {
  test('removes the user, their rows in every table and their stored files', async () => {
    const { cookie, user } = await app.signUp()
    const form = new FormData()
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
    form.append('file', new File([png], 'a.png', { type: 'image/png' }))
    expect((await app.json('POST', '/self/file', { cookie, form })).status).toBe(200)
    await app.ctx.sql`insert into analytics_events (user_id, event) values (${user.id}, 'test_event')`
    const [file] = await app.ctx.sql<{ storage_key: string }[]>`select storage_key from files where user_id = ${user.id}`
    expect(await app.ctx.storage.get(file.storage_key)).toBeTruthy()

    const res = await app.json('DELETE', `/users/${user.id}`, { cookie: admin })
    expect(res.status).toBe(200)
    for (const table of ['users', 'sessions', 'files', 'user_identities', 'analytics_events']) {
      const column = table === 'users' ? 'id' : 'user_id'
      expect(await app.ctx.sql`select 1 from ${app.ctx.sql(table)} where ${app.ctx.sql(column)} = ${user.id}`, table).toHaveLength(0)
    }
    expect(await app.ctx.storage.get(file.storage_key)).toBeNull()
    expect((await app.json('GET', '/self', { cookie })).status).toBe(401)
    expect((await app.json('DELETE', `/users/${user.id}`, { cookie: admin })).status).toBe(404)
  })
})

describe('GET /users: paging, sorting and filtering on the server', () => {
  const tag = `pg${Date.now().toString(36)}`
  const total = 260

  beforeAll(async () => {
    // Names and emails carry the tag so the search isolates this suite's users from everyone else's.
    const rows = Array.from({ length: total }, (_, i) => ({
      email: `${tag}-${String(i).padStart(3, '0')}@example.com`,
      name: `${i % 2 ? 'beta' : 'Alpha'} ${tag} ${String(total - i).padStart(3, '0')}`,
      role: i % 5 === 0 ? 'DEVELOPER' : 'REGULAR',
      subscription_type: i % 4 === 0 ? 'PREMIUM' : 'FREEMIUM',
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
    }))
    await app.ctx.sql`insert into users ${app.ctx.sql(rows)}`
  })

  const list = (query: string) => app.json('GET', `/users?q=${tag}&${query}`, { cookie: admin })

  test('pages of at most 100 with the total; newest first by default', async () => {
    const first = await list('pageSize=100')
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ total, page: 1, pageSize: 100 })
    expect(first.body.users).toHaveLength(100)
    expect(first.body.users[0].email).toBe(`${tag}-259@example.com`)
    expect(first.body.users[0]).toMatchObject({ role: expect.any(String), subscription: expect.any(Object), isSuspended: false })
    const last = await list('pageSize=100&page=3')
    expect(last.body.users).toHaveLength(60)
    const seen = new Set([...first.body.users, ...(await list('pageSize=100&page=2')).body.users, ...last.body.users].map((u: any) => u.id))
    expect(seen.size).toBe(total)
    expect((await list('pageSize=100&page=4')).body.users).toHaveLength(0)
    expect((await app.json('GET', '/users?pageSize=101', { cookie: admin })).status).toBe(400)
    expect((await app.json('GET', '/users?page=0', { cookie: admin })).status).toBe(400)
    expect((await app.json('GET', '/users?pageSize=20', { cookie: admin })).body.users).toHaveLength(20)
  })

  test('sorts by name (any case), email, role, subscription and creation, both ways', async () => {
    const names = (await list('sort=name&order=asc&pageSize=100')).body.users.map((u: any) => u.name)
    expect(names[0]).toBe(`Alpha ${tag} 002`)
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    const emails = (await list('sort=email&order=desc&pageSize=5')).body.users.map((u: any) => u.email)
    expect(emails[0]).toBe(`${tag}-259@example.com`)
    expect(emails).toEqual([...emails].sort().reverse())
    const byRole = (await list('sort=role&order=asc&pageSize=100')).body.users
    expect(byRole.slice(0, 52).every((u: any) => u.role === 'DEVELOPER')).toBe(true)
    expect(byRole[52].role).toBe('REGULAR')
    const bySub = (await list('sort=subscription&order=desc&pageSize=100')).body.users
    expect(bySub.slice(0, 65).every((u: any) => u.subscription.type === 'PREMIUM')).toBe(true)
    const oldest = (await list('sort=createdAt&order=asc&pageSize=1')).body.users[0]
    expect(oldest.email).toBe(`${tag}-000@example.com`)
    expect((await list('sort=password')).status).toBe(400)
    expect((await list('order=up')).status).toBe(400)
  })

  test('search by name or email, any case, literally; filter by role', async () => {
    expect((await list('role=DEVELOPER&pageSize=100')).body.total).toBe(52)
    expect((await list('role=DEVELOPER&pageSize=100')).body.users.every((u: any) => u.role === 'DEVELOPER')).toBe(true)
    const byEmail = await app.json('GET', `/users?q=${tag.toUpperCase()}-007@`, { cookie: admin })
    expect(byEmail.body.users.map((u: any) => u.email)).toEqual([`${tag}-007@example.com`])
    const byName = await app.json('GET', `/users?q=${encodeURIComponent(`beta ${tag} 25`)}`, { cookie: admin })
    expect(byName.body.users.map((u: any) => u.name).sort()).toEqual([`beta ${tag} 251`, `beta ${tag} 253`, `beta ${tag} 255`, `beta ${tag} 257`, `beta ${tag} 259`])
    expect((await app.json('GET', `/users?q=${tag}%25`, { cookie: admin })).body.total).toBe(0)
    expect((await app.json('GET', `/users?q=${tag.slice(0, 3)}_`, { cookie: admin })).body.total).toBe(0)
    expect((await app.json('GET', '/users?role=OWNER', { cookie: admin })).status).toBe(400)
  })
})
