import { describe, expect, test } from 'vitest'
import { securityHeaders, withHeaders } from '../../../api/http/securityHeaders'

const cfg = (publicUrl: string) => ({ publicUrl, ecpay: { merchantId: '1', hashKey: 'k', hashIV: 'v', endpoint: 'https://payment-stage.ecpay.com.tw' } })

describe('security headers', () => {
  test('HSTS and upgrade-insecure-requests only when the public URL is https', () => {
    const https = securityHeaders(cfg('https://idealself.app'))
    expect(https.page['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(https.other['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(https.page['content-security-policy']).toContain('upgrade-insecure-requests')
    const http = securityHeaders(cfg('http://localhost:4321'))
    expect(http.page['strict-transport-security']).toBeUndefined()
    expect(http.page['content-security-policy']).not.toContain('upgrade-insecure-requests')
  })

  test('pages may post forms only to this app and the payment provider, and are never framed', () => {
    const { page, other, worker } = securityHeaders(cfg('https://idealself.app'))
    expect(page['content-security-policy']).toBe(
      "worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; form-action 'self' https://payment-stage.ecpay.com.tw; upgrade-insecure-requests",
    )
    expect(other['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    // The service worker may fetch from this site and nowhere else, and runs no other script.
    expect(worker['content-security-policy']).toBe("default-src 'none'; connect-src 'self'; frame-ancestors 'none'")
    for (const h of [page, other, worker]) {
      expect(h['x-content-type-options']).toBe('nosniff')
      expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(h['permissions-policy']).toMatch(/^geolocation=\(self\), camera=\(\), microphone=\(\)/)
    }
  })

  test("a page's own policy is extended, not replaced; other headers it sets win", () => {
    const { page } = securityHeaders(cfg('http://localhost:4321'))
    const res = withHeaders(
      new Response('x', { headers: { 'content-security-policy': "script-src 'self' 'sha256-abc';", 'referrer-policy': 'no-referrer' } }),
      page,
    )
    expect(res.headers.get('content-security-policy')).toBe(`script-src 'self' 'sha256-abc'; ${page['content-security-policy']}`)
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    // Immutable headers (a redirect) are copied onto a new response.
    const redirect = withHeaders(Response.redirect('http://localhost/login', 302), page)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('http://localhost/login')
    expect(redirect.headers.get('x-frame-options')).toBe('DENY')
  })
})
