import { describe, expect, test } from 'vitest'
import { isUnavailable, RETRY_AFTER_SECONDS, unavailablePage, unlessUnavailable } from '../../../site/src/lib/unavailable'
import { ServerApiError } from '../../../site/src/lib/serverApi'

describe('a page whose database connection is lost', () => {
  test('connection errors, directly or as the API’s 503, are unavailability; anything else is not', () => {
    expect(isUnavailable(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }))).toBe(true)
    expect(isUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true)
    expect(isUnavailable(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }))).toBe(true)
    expect(isUnavailable(new ServerApiError(503, '{"error":"ServiceUnavailable"}'))).toBe(true)
    expect(isUnavailable(new ServerApiError(500, 'boom'))).toBe(false)
    expect(isUnavailable(new ServerApiError(404, 'not found'))).toBe(false)
    expect(isUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false)
    expect(isUnavailable(new TypeError('x is undefined'))).toBe(false)
  })

  test('answers 503 with Retry-After and a short page in the person’s language', async () => {
    for (const [lang, htmlLang, title] of [
      ['ENUS', 'en', 'Ideal Self is briefly unavailable'],
      ['ZHTW', 'zh-Hant-TW', 'Ideal Self 暫時無法使用'],
      ['ZHCN', 'zh-Hans-CN', 'Ideal Self 暂时无法使用'],
    ] as const) {
      const res = unavailablePage(lang)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
      expect(res.headers.get('cache-control')).toBe('no-store')
      const html = await res.text()
      expect(html).toContain(`<html lang="${htmlLang}">`)
      expect(html).toContain(`<h1>${title}</h1>`)
    }
  })
})

describe('a read a page can do without', () => {
  test('falls back on any failure but the database being out of reach, which makes the page a 503', () => {
    const fallback = unlessUnavailable('fallback')
    for (const error of [new ServerApiError(404, 'not found'), new ServerApiError(403, 'forbidden'), new ServerApiError(500, 'boom'), new TypeError('x')])
      expect(fallback(error)).toBe('fallback')
    for (const error of [new ServerApiError(503, '{"error":"ServiceUnavailable"}'), Object.assign(new Error('ended'), { code: 'CONNECTION_ENDED' })])
      expect(() => fallback(error)).toThrow(error)
  })
})
