import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

test('health reports status, database kind and version, and the model provider', async () => {
  const { status, body } = await app.json('GET', '/health')
  expect(status).toBe(200)
  expect(body.status).toBe('ok')
  expect(body.database.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'embedded')
  expect(body.database.version).toMatch(/^\d+/)
  expect(body.model).toEqual({ kind: 'offline', model: null })
})

test('health answers 503 when the database is unreachable', async () => {
  const other = await startTestApp()
  await other.ctx.db.close()
  const { status, body } = await other.json('GET', '/health')
  expect(status).toBe(503)
  expect(body.status).toBe('unavailable')
})

test('the OpenAPI page lists every route', async () => {
  const res = await app.call('GET', '/docs/json')
  expect(res.status).toBe(200)
  const spec = await res.json()
  for (const path of ['/api/v1/auth/login/oauth', '/api/v1/auth/login/credential', '/api/v1/self', '/api/v1/self/file', '/api/v1/self/geo-location'])
    expect(Object.keys(spec.paths)).toContain(path)
})

test('unknown API paths get the one error shape', async () => {
  const { status, body } = await app.json('GET', '/no-such-thing')
  expect(status).toBe(404)
  expect(body.statusCode).toBe(404)
})

test('a cross-site write with a cookie is refused', async () => {
  const { cookie } = await app.signUp()
  const res = await app.call('PATCH', '/self/profile', { cookie, body: { name: 'x' }, headers: { origin: 'https://evil.example.com' } })
  expect(res.status).toBe(403)
})
