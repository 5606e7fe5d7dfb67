import { describe, expect, test } from 'vitest'
import { misdirected, ownLink, sameMachine } from '../../../api/http/publicOrigin'

describe('names of this machine', () => {
  test.each([
    ['http://localhost:4321', 'http://127.0.0.1:4321', true],
    ['http://127.0.0.1:4321', 'http://[::1]:4321', true],
    ['http://127.0.1.1:4321', 'http://localhost:4321', true],
    ['http://localhost:4321', 'http://127.0.0.1:4322', false],
    ['http://localhost:4321', 'https://127.0.0.1:4321', false],
    ['http://localhost:4321', 'http://192.168.0.2:4321', false],
    ['http://localhost.example:4321', 'http://localhost:4321', false],
  ])('%s and %s → %s', (a, b, same) => expect(sameMachine(new URL(a), new URL(b))).toBe(same))
})

describe('links the server builds from a page a client names', () => {
  const publicUrl = 'http://localhost:4321'
  test('are always on PUBLIC_URL', () => {
    expect(ownLink('/admin/reset-password', publicUrl, { production: false })?.href).toBe('http://localhost:4321/admin/reset-password')
    expect(ownLink('http://127.0.0.1:4321/admin/reset-password?a=1#b', publicUrl, { production: false })?.href).toBe('http://localhost:4321/admin/reset-password?a=1#b')
    expect(ownLink('http://127.0.0.1:4321/admin/reset-password', publicUrl, { production: true })).toBeNull()
    expect(ownLink('https://evil.example/reset', publicUrl, { production: false, requestUrl: 'http://127.0.0.1:4321/api' })).toBeNull()
    expect(ownLink('//evil.example/reset', publicUrl, { production: false })).toBeNull()
    expect(ownLink('http://[bad', publicUrl, { production: false })).toBeNull()
  })
})

describe('production requests for another host', () => {
  const publicUrl = 'https://app.example'
  const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers })

  test('are refused with a message naming PUBLIC_URL', () => {
    const refused = misdirected(request('http://10.0.0.5:4321/api/v1/self', { host: '10.0.0.5:4321' }), publicUrl, true)
    expect(refused).toEqual({
      statusCode: 421,
      error: 'MisdirectedRequest',
      message: expect.stringContaining('PUBLIC_URL, https://app.example'),
    })
    expect(refused!.message).toContain('10.0.0.5:4321')
    expect(misdirected(request('https://evil.example/app', { host: 'evil.example' }), publicUrl, true)?.statusCode).toBe(421)
  })

  test('pass on PUBLIC_URL\'s host (or the proxy\'s forwarded host), for health on any host, and always in development', () => {
    expect(misdirected(request('https://app.example/app', { host: 'app.example' }), publicUrl, true)).toBeNull()
    expect(misdirected(request('http://10.0.0.5:4321/app', { host: '10.0.0.5:4321', 'x-forwarded-host': 'app.example' }), publicUrl, true)).toBeNull()
    expect(misdirected(request('http://10.0.0.5:4321/api/v1/health', { host: '10.0.0.5:4321' }), publicUrl, true)).toBeNull()
    expect(misdirected(request('http://127.0.0.1:4321/app', { host: '127.0.0.1:4321' }), 'http://localhost:4321', false)).toBeNull()
  })
})
