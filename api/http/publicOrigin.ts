// PUBLIC_URL is the one address the app is known by: links the server builds (mails, payment callbacks, pages
// to come back to) always use it. In development the same machine answers on several names (localhost,
// 127.0.0.1, [::1]) and a browser on any of them must work; in production a request for another host is a
// misconfiguration (or a forged Host) and is refused with a message naming PUBLIC_URL.
import type { ErrorBody } from './errors'

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i

/** Load balancers probe instances by their own address; health answers on any host. */
const ANY_HOST_PATHS = ['/api/v1/health']

/** Two addresses of this one machine: loopback names for each other, with the same scheme and port. */
export function sameMachine(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && LOOPBACK.test(a.hostname) && LOOPBACK.test(b.hostname)
}

/**
 * A page of ours a client names (a place to come back to), as a link on PUBLIC_URL; null when it is not ours.
 * A relative path is taken on PUBLIC_URL. Outside production, the same page on another name of this machine,
 * or on the address the request itself came in on, is moved onto PUBLIC_URL.
 */
export function ownLink(raw: string, publicUrl: string, opts: { production: boolean; requestUrl?: string }): URL | null {
  let url: URL
  try {
    url = new URL(raw.trim(), publicUrl)
  } catch {
    return null
  }
  const base = new URL(publicUrl)
  if (url.origin === base.origin) return url
  if (opts.production) return null
  const arrivedOn = opts.requestUrl ? new URL(opts.requestUrl).origin : null
  if (!sameMachine(url, base) && url.origin !== arrivedOn) return null
  return new URL(url.pathname + url.search + url.hash, base)
}

/** Why a link is refused, naming the address it must be on. */
export const notOwnLink = (field: string, publicUrl: string) =>
  `${field} must be a page of this app at its PUBLIC_URL, ${new URL(publicUrl).origin}`

/**
 * In production, the refusal of a request that came for a host other than PUBLIC_URL's (by the proxy's
 * X-Forwarded-Host when there is one, else Host); null when the request may go on.
 */
export function misdirected(request: Request, publicUrl: string, production: boolean): ErrorBody | null {
  if (!production) return null
  const url = new URL(request.url)
  if (ANY_HOST_PATHS.includes(url.pathname)) return null
  const host = (request.headers.get('x-forwarded-host')?.split(',')[0] ?? request.headers.get('host') ?? url.host).trim().toLowerCase()
  const expected = new URL(publicUrl)
  if (host === expected.host.toLowerCase()) return null
  return {
    statusCode: 421,
    error: 'MisdirectedRequest',
    message: `This server answers only at its PUBLIC_URL, ${expected.origin}, and this request came for ${host || 'no host'}. Open ${expected.origin}, or set PUBLIC_URL to the address people use.`,
  }
}
