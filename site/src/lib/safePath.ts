/** A return path from a query string, only when it stays inside this app (no open redirect). */
export function safeReturnPath(raw: string | null | undefined, fallback: string): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback
  return raw
}
