import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { generateKeyPair, exportJWK, SignJWT } from 'jose'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'

const CLIENT_ID = 'test-client.apps.googleusercontent.com'
let app: TestApp
let jwksServer: ReturnType<typeof Bun.serve>
let privateKey: CryptoKey
let otherKey: CryptoKey

beforeAll(async () => {
  const pair = await generateKeyPair('RS256')
  privateKey = pair.privateKey
  otherKey = (await generateKeyPair('RS256')).privateKey
  const publicKey = pair.publicKey
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  jwksServer = Bun.serve({ port: 0, fetch: () => Response.json({ keys: [jwk] }) })
  app = await startTestApp({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_JWKS_URL: `http://127.0.0.1:${jwksServer.port}/oauth2/v3/certs`,
  })
})
afterAll(async () => {
  await app?.close()
  jwksServer?.stop(true)
})

function token(claims: Record<string, unknown> = {}, o: { iss?: string; aud?: string; exp?: string | number; kid?: string; key?: CryptoKey } = {}) {
  return new SignJWT({ email: claims.email ?? uniqueEmail('g'), email_verified: true, name: 'Gia Google', picture: 'https://example.com/p.png', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? 'k1' })
    .setIssuer(o.iss ?? 'https://accounts.google.com')
    .setAudience(o.aud ?? CLIENT_ID)
    .setSubject(String(claims.sub ?? `sub-${Math.random()}`))
    .setIssuedAt()
    .setExpirationTime(o.exp ?? '1h')
    .sign(o.key ?? privateKey)
}

const login = (idToken: string) => app.json('POST', '/auth/login/oauth', { body: { idToken, strategy: 'google', isWeb: true } })

describe('Google ID tokens', () => {
  test('a valid token creates a REGULAR user linked to Google and starts a session', async () => {
    const email = uniqueEmail('google')
    const { status, body, res } = await login(await token({ email, sub: 'g-1' }))
    expect(status).toBe(200)
    expect(body.user).toMatchObject({
      email,
      name: 'Gia Google',
      role: 'REGULAR',
      oauthProfileUrl: 'https://example.com/p.png',
      isLinkedToOAuthAccount: true,
      subscription: { type: 'FREEMIUM' },
    })
    const cookie = res.headers.getSetCookie()[0]
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const me = await app.json('GET', '/self', { cookie: cookie.split(';')[0] })
    expect(me.body.email).toBe(email)
    // The second sign-in finds the same account by subject.
    const again = await login(await token({ email, sub: 'g-1' }))
    expect(again.body.user.id).toBe(body.user.id)
  })

  test.each([
    ['wrong audience', () => token({}, { aud: 'someone-else' })],
    ['wrong issuer', () => token({}, { iss: 'https://evil.example.com' })],
    ['expired', () => token({}, { exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['unknown key', () => token({}, { kid: 'k2' })],
    ['signed by another key', () => token({}, { key: otherKey })],
    ['tampered', async () => {
      const [h, p, s] = (await token()).split('.')
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
      claims.email = 'admin@example.com'
      return [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.')
    }],
    ['email not verified', () => token({ email_verified: false })],
  ])('%s is refused with 401', async (_name, make) => {
    const { status, body, res } = await login(await make())
    expect(status).toBe(401)
    expect(body.statusCode).toBe(401)
    expect(typeof body.message).toBe('string')
    expect(res.headers.getSetCookie()).toHaveLength(0)
  })

  test('a malformed body gets 400 with a message', async () => {
    const r1 = await app.json('POST', '/auth/login/oauth', { body: { idToken: 'x', strategy: 'facebook' } })
    expect(r1.status).toBe(400)
    expect(r1.body.message).toBeTruthy()
    const r2 = await app.json('POST', '/auth/login/oauth', { body: '{not json', headers: { 'content-type': 'application/json' } })
    expect(r2.status).toBe(400)
  })

  test('the development identity provider is off when a Google client id is configured', async () => {
    const { status } = await app.json('POST', '/auth/dev/token', { body: { email: 'a@b.co', name: 'A' } })
    expect(status).toBe(404)
  })
})
