import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://idealself.example' })
})
afterAll(() => app?.close())

test('every API answer — success, error, unknown route — carries the security headers', async () => {
  const answers = [
    await app.call('GET', '/health'),
    await app.call('GET', '/self'),
    await app.call('GET', '/no-such-route'),
    await app.call('POST', '/auth/login/credential', { body: '{not json' }),
  ]
  for (const res of answers) {
    expect(res.headers.get('content-security-policy'), String(res.status)).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  }
})

test('the OpenAPI page keeps the viewer it loads', async () => {
  const res = await app.call('GET', '/docs')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-security-policy')).toBeNull()
})
