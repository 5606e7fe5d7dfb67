// What an admin-edited link or media URL may be: a path of this site, or an absolute http(s) or mailto URL.
// Anything else (javascript:, data:, vbscript:, blob:, a scheme-relative //host) could run script or leave
// the site from a link a visitor trusts. Judged on the URL a browser would build from the text, so tabs,
// newlines and backslashes that browsers ignore or rewrite cannot disguise a scheme or a host.
const BASE = 'https://site.invalid'
const SCHEMES = new Set(['http:', 'https:', 'mailto:'])

export function isSafeLinkUrl(raw: string): boolean {
  const text = raw.trim()
  if (!text) return true
  let url: URL
  try {
    url = new URL(text, BASE)
  } catch {
    return false
  }
  // A relative text resolves against the base: it must stay on it.
  if (url.origin === BASE) return /^\/(?![/\\])/.test(text.replace(/[\t\n\r]/g, ''))
  if (!SCHEMES.has(url.protocol)) return false
  return url.protocol === 'mailto:' || /^https?:\/\//i.test(text)
}

/** The URL when it is safe to put in a page, else the fallback. */
export const safeLinkUrl = (raw: string | null | undefined, fallback: string) => (raw && isSafeLinkUrl(raw) ? raw.trim() : fallback)
