import { describe, expect, test } from 'vitest'
import { safeReturnPath } from '../../../site/src/lib/safePath'

const FALLBACK = '/app/select-character'
// What attackers send in ?from= (already percent-decoded by searchParams), each of which a browser would follow
// to another host.
const ESCAPES = [
  'https://evil.example/x', '//evil.example', '/\t/evil.example/path', '/\n/evil.example/path', '/\r/evil.example',
  '\t//evil.example', '/\\evil.example', '\\\\evil.example', '\\/evil.example', '/\t\\evil.example', ' //evil.example',
  'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'http:evil.example', 'https:/\\evil.example',
  '//evil.example@app.invalid', 'https://app.invalid//evil.example', '/%2F/evil.example'.replace('%2F', '/'),
  'ftp://evil.example', '\u0000//evil.example', '/\u0000/evil.example', 'https://evil.example%2F@app.invalid', '/x/../\t/evil.example',
]

describe('safeReturnPath', () => {
  test.each(ESCAPES)('refuses %j', (raw) => {
    const out = safeReturnPath(raw, FALLBACK)
    // Whatever comes back, following it from a page of the app stays on the app.
    const followed = new URL(out, 'https://idealself.app/app/settings')
    expect(followed.origin).toBe('https://idealself.app')
    expect(out).toMatch(/^\/(?![/\\])/)
    expect(out).not.toContain('evil.example/')
  })

  test('keeps paths of the app, normalised', () => {
    expect(safeReturnPath('/app/conversations/1/character/2', FALLBACK)).toBe('/app/conversations/1/character/2')
    expect(safeReturnPath('/app/settings?from=%2Fapp#x', FALLBACK)).toBe('/app/settings?from=%2Fapp#x')
    expect(safeReturnPath('/app/../app/select-character', FALLBACK)).toBe('/app/select-character')
    expect(safeReturnPath('/a\tp\np/x', FALLBACK)).toBe('/app/x')
    expect(safeReturnPath('', FALLBACK)).toBe(FALLBACK)
    expect(safeReturnPath(null, FALLBACK)).toBe(FALLBACK)
  })
})
