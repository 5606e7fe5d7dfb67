// A return path from a query string, only when it stays inside this app (no open redirect). The text is
// parsed as a browser would follow it — tabs and newlines dropped, backslashes read as slashes, dot segments
// and percent-escapes resolved — and only a same-origin result is kept; the page then links to that
// normalised path, never to the text it was given.
const BASE = 'https://app.invalid'

export function safeReturnPath(raw: string | null | undefined, fallback: string): string {
  if (!raw) return fallback
  let url: URL
  try {
    url = new URL(raw, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  const path = url.pathname + url.search + url.hash
  // "//host" would be read as another host the moment the path is put in a link.
  return /^\/(?![/\\])/.test(path) ? path : fallback
}
