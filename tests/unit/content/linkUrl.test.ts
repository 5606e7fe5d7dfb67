import { describe, expect, test } from 'vitest'
import { isSafeLinkUrl, safeLinkUrl } from '../../../api/content/linkUrl'

const SAFE = [
  'https://idealself.app/terms', 'http://example.com', 'HTTPS://EXAMPLE.COM/a?b=c#d', 'mailto:support@idealself.app',
  'MAILTO:a@b.co?subject=Hi', '/terms', '/audio/ideal-self-ambient.wav', '/a/b?c=d', '', '  ', ' https://example.com/x ',
  'https://例え.jp/利用規約', 'https://user@example.com:8443/x',
]
const UNSAFE = [
  'javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)',
  '\u0001javascript:alert(1)', 'javascript&colon;alert(1)', 'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=', 'vbscript:msgbox(1)', 'blob:https://example.com/uuid', 'file:///etc/passwd',
  'ftp://example.com', 'tel:+886', 'about:blank', '//evil.example/x', '\\\\evil.example/x', '/\\evil.example',
  '/\t/evil.example/path', '/\n/evil.example', 'https:evil.example', 'http:/evil.example', 'terms', './terms',
  '../terms', '?x=1', '#top', 'https://', 'mailto', 'ws://example.com', 'intent://x#Intent;end',
]

describe('link URLs an admin may save', () => {
  test.each(SAFE)('takes %j', (url) => expect(isSafeLinkUrl(url)).toBe(true))
  test.each(UNSAFE)('refuses %j', (url) => expect(isSafeLinkUrl(url)).toBe(false))
  test('a stored unsafe link falls back when a page reads it', () => {
    expect(safeLinkUrl('javascript:alert(1)', '/terms')).toBe('/terms')
    expect(safeLinkUrl(null, '/terms')).toBe('/terms')
    expect(safeLinkUrl(' https://a.example/t ', '/terms')).toBe('https://a.example/t')
  })
})
