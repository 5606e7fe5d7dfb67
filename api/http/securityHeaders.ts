// The headers every response carries. Astro writes each page's Content-Security-Policy (script-src with a hash of
// every inline script the page renders, style-src, and the fetch directives of site/astro.config.mjs); the server
// adds what depends on configuration or only a header can say — frame-ancestors, form-action to the payment
// provider, upgrade-insecure-requests on https — to that same policy.
import type { Config } from '../config'

export interface SecurityHeaders {
  /** For pages (HTML documents). */
  page: Record<string, string>
  /** For API answers and static files: nothing in them may run, be framed or be sniffed into something else. */
  other: Record<string, string>
  /** For the service worker script (/sw.js), whose own policy governs what the worker fetches: this site only. */
  worker: Record<string, string>
}

export function securityHeaders(cfg: Pick<Config, 'publicUrl' | 'ecpay'>): SecurityHeaders {
  const https = new URL(cfg.publicUrl).protocol === 'https:'
  const paymentOrigin = new URL(cfg.ecpay.endpoint).origin
  const common: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'geolocation=(self), camera=(), microphone=(), usb=(), payment=(), browsing-topics=()',
    'x-frame-options': 'DENY',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
  const page = [
    // The app installs (site/public/manifest.webmanifest) and works offline through its service worker.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    `form-action 'self' ${paymentOrigin}`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
  return {
    page: { ...common, 'content-security-policy': page, 'cross-origin-opener-policy': 'same-origin-allow-popups' },
    other: { ...common, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" },
    worker: { ...common, 'content-security-policy': "default-src 'none'; connect-src 'self'; frame-ancestors 'none'" },
  }
}

/**
 * The response with each header it does not set itself (copied first when its headers are immutable); a
 * Content-Security-Policy it has is extended with ours, so the browser enforces one policy.
 */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const changes: [string, string][] = []
  for (const [name, value] of Object.entries(headers)) {
    const own = response.headers.get(name)
    if (own === null) changes.push([name, value])
    else if (name === 'content-security-policy' && !own.includes(value)) changes.push([name, `${own.trim().replace(/;$/, '')}; ${value}`])
  }
  if (!changes.length) return response
  try {
    for (const [name, value] of changes) response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    for (const [name, value] of changes) copy.headers.set(name, value)
    return copy
  }
}
