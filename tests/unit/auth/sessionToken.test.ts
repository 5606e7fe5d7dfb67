// The session token: read from the Cookie header without a cookie jar, and verified once per token under a secret.
import { describe, expect, test, vi } from 'vitest'
import { SignJWT } from 'jose'
import { sessionIdFromToken, sessionKeys } from '../../../api/auth/sessions'
import { readCookie } from '../../../api/http/guard'

const SECRET = 'a-session-secret-of-at-least-32-characters'
const sign = (secret: string, sub: string | undefined, exp: number) => {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp)
  if (sub) jwt.setSubject(sub)
  return jwt.sign(new TextEncoder().encode(secret))
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

describe('readCookie', () => {
  test.each([
    ['session=abc', 'session', 'abc'],
    ['a=1; session=abc.def-ghi_j; b=2', 'session', 'abc.def-ghi_j'],
    ['a=1;session=abc;b=2', 'session', 'abc'],
    ['  session =  abc  ', 'session', 'abc'],
    ['xsession=1; session=2', 'session', '2'],
    ['session_x=1; session=2', 'session', '2'],
    ['session=a%20b', 'session', 'a b'],
    ['session=a=b=c', 'session', 'a=b=c'],
    ['session=', 'session', ''],
    ['__Host-session=tok', '__Host-session', 'tok'],
  ])('%s → %s', (header, name, value) => expect(readCookie(header, name)).toBe(value))

  test.each([
    [null, 'session'],
    ['', 'session'],
    ['other=1', 'session'],
    ['session', 'session'],
    ['=session', 'session'],
    // A malformed escape is no cookie at all, not an error that fails the request.
    ['session=%E0%A4%A', 'session'],
    ['session=%', 'session'],
  ])('%s → no value', (header, name) => expect(readCookie(header, name)).toBeUndefined())
})

describe('sessionIdFromToken', () => {
  test('a valid token names its session, and the second check is answered without verifying again', async () => {
    const keys = sessionKeys(SECRET, 30)
    const token = await sign(SECRET, 'session-1', inAnHour())
    expect(await sessionIdFromToken(keys, token)).toBe('session-1')
    expect(keys.verified.get(token)?.sessionId).toBe('session-1')
    expect(await sessionIdFromToken(keys, token)).toBe('session-1')
  })

  test('a token signed with another secret is refused, and never cached', async () => {
    const keys = sessionKeys(SECRET, 30)
    const forged = await sign('another-secret-of-at-least-32-characters!', 'session-1', inAnHour())
    expect(await sessionIdFromToken(keys, forged)).toBeNull()
    expect(keys.verified.size).toBe(0)
  })

  test('a token verified under one secret is not taken as verified under another', async () => {
    const first = sessionKeys(SECRET, 30)
    const token = await sign(SECRET, 'session-1', inAnHour())
    expect(await sessionIdFromToken(first, token)).toBe('session-1')
    const rotated = sessionKeys('a-rotated-secret-of-at-least-32-characters', 30)
    expect(await sessionIdFromToken(rotated, token)).toBeNull()
  })

  test('a cached token stops working at its own expiry', async () => {
    const keys = sessionKeys(SECRET, 30)
    const token = await sign(SECRET, 'session-1', inAnHour())
    expect(await sessionIdFromToken(keys, token)).toBe('session-1')
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 3601_000)
      expect(await sessionIdFromToken(keys, token)).toBeNull()
      expect(keys.verified.has(token)).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  test('expired, tampered, subject-less and empty tokens are refused', async () => {
    const keys = sessionKeys(SECRET, 30)
    const expired = await sign(SECRET, 'session-1', Math.floor(Date.now() / 1000) - 10)
    const good = await sign(SECRET, 'session-1', inAnHour())
    const [h, p, s] = good.split('.')
    const tampered = [h, Buffer.from(JSON.stringify({ sub: 'session-2', exp: inAnHour() })).toString('base64url'), s].join('.')
    for (const token of [expired, tampered, await sign(SECRET, undefined, inAnHour()), '', 'not.a.token', undefined, null])
      expect(await sessionIdFromToken(keys, token)).toBeNull()
    void p
  })

  test('the cache holds at most ten thousand tokens, dropping the oldest', async () => {
    const keys = sessionKeys(SECRET, 30)
    for (let i = 0; i < 10_000; i++) keys.verified.set(`t${i}`, { sessionId: `s${i}`, expiresAt: Date.now() + 60_000 })
    const token = await sign(SECRET, 'session-new', inAnHour())
    expect(await sessionIdFromToken(keys, token)).toBe('session-new')
    expect(keys.verified.size).toBe(10_000)
    expect(keys.verified.has('t0')).toBe(false)
    expect(keys.verified.has(token)).toBe(true)
  })
})
