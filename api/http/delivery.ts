// How the server puts bytes on the wire: which content coding a client gets (RFC 9110 §12.5.3), which responses
// are worth compressing, entity tags and conditional GETs, and how long each kind of file may be cached.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'

export type Coding = 'br' | 'gzip' | 'identity'

/** The server's order of preference when the client likes several codings equally. */
const PREFERENCE: Coding[] = ['br', 'gzip', 'identity']

/** Below this a compressed body saves less than a packet, and the work is not worth it. */
export const COMPRESS_MIN_BYTES = 1024

/** The codings the client accepts with their weights; `null` when it sent no Accept-Encoding at all. */
export function parseAcceptEncoding(header: string | null): Map<string, number> | null {
  if (header === null) return null
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = rawName.trim().toLowerCase()
    if (!name) continue
    let q = 1
    for (const p of params) {
      const [key, value = ''] = p.split('=')
      if (key.trim().toLowerCase() !== 'q') continue
      // A weight that is not a number refuses the coding rather than guessing at what was meant.
      const n = /^\s*\d*(\.\d*)?\s*$/.test(value) ? Number(value) : NaN
      q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0
    }
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3).
    const key = name === 'x-gzip' ? 'gzip' : name
    // A coding listed twice keeps its highest weight.
    weights.set(key, Math.max(q, weights.get(key) ?? 0))
  }
  return weights
}

/**
 * The coding to answer with, out of those `available` besides identity: the one the client weighs highest, the
 * server's preference (br, gzip, identity) between equals. Identity is acceptable unless the client refused it
 * (`identity;q=0`, or `*;q=0` without naming identity); when it refused everything, identity is sent anyway.
 */
export function negotiateEncoding(header: string | null, available: readonly Coding[] = ['br', 'gzip']): Coding {
  const weights = parseAcceptEncoding(header)
  // No header means any coding is fine, but a client that says nothing may not decode one (RFC 9110 §12.5.3).
  if (!weights || weights.size === 0) return 'identity'
  const star = weights.get('*')
  const weight = (c: Coding) => {
    const own = weights.get(c)
    if (own !== undefined) return own
    if (star !== undefined) return star
    // Unnamed identity is acceptable (RFC 9110 §12.5.3), but only when nothing the client named is.
    return c === 'identity' ? Number.MIN_VALUE : 0
  }
  let best: Coding = 'identity'
  let bestWeight = -1
  for (const c of PREFERENCE) {
    if (c !== 'identity' && !available.includes(c)) continue
    const w = weight(c)
    if (w > 0 && w > bestWeight) {
      best = c
      bestWeight = w
    }
  }
  return best
}

const COMPRESSIBLE_TYPE = /^(text\/(?!event-stream)|application\/(json|javascript|manifest\+json|xml|wasm)|image\/svg\+xml)|\+json|\+xml/i

/** Text-like types shrink under compression; images, audio and event streams (each event must leave at once) do not. */
export function compressibleType(contentType: string | null): boolean {
  return !!contentType && COMPRESSIBLE_TYPE.test(contentType)
}

const COMPRESSIBLE_FILE = /\.(js|mjs|css|html|json|webmanifest|svg|txt|xml|wasm|map)$/i
/** Files of the build that are compressed ahead of time. */
export const compressibleFile = (path: string) => COMPRESSIBLE_FILE.test(path)

/** Build-time compression: the slowest, smallest settings, since it runs once. */
export function compressBest(data: Uint8Array, coding: 'br' | 'gzip'): Uint8Array {
  return coding === 'br'
    ? brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } })
    : gzipSync(data, { level: 9 })
}

/** Per-response compression: brotli at quality 4 is as fast as gzip's default and still smaller. */
export function compressFast(data: Uint8Array, coding: 'br' | 'gzip'): Uint8Array {
  return coding === 'br'
    ? brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } })
    : gzipSync(data, { level: 6 })
}

/** A strong tag for a body; the coding gives each encoded form its own tag, as RFC 9110 §8.8.3 asks. */
export function entityTag(data: Uint8Array | string, coding: Coding = 'identity'): string {
  const hash = Bun.hash(data).toString(36)
  return coding === 'identity' ? `"${hash}"` : `"${hash}-${coding}"`
}

/** The tag without its coding suffix or weak prefix, so a tag of any encoded form matches the content. */
const tagContent = (tag: string) => tag.trim().replace(/^W\//, '').replace(/^"(.*?)(?:-(?:br|gzip))?"$/, '$1')

/** Whether If-None-Match names this content (weak comparison, any coding of it), or is `*`. */
export function notModified(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const own = tagContent(etag)
  return ifNoneMatch.split(',').some((t) => t.trim() && tagContent(t) === own)
}

/** Build output whose name carries a hash of its content (Astro writes them to /_astro/). */
export const isHashedAsset = (pathname: string) => pathname.startsWith('/_astro/')

/** Cache-Control for a file of the build. */
export function fileCacheControl(pathname: string): string {
  if (isHashedAsset(pathname)) return 'public, max-age=31536000, immutable'
  // The worker script and the manifest are looked at on every visit, so a new build reaches people at once.
  if (pathname === '/sw.js' || pathname === '/manifest.webmanifest') return 'no-cache'
  return 'public, max-age=3600'
}

export function addVary(headers: Headers, value: string) {
  const vary = headers.get('vary')
  if (!vary) headers.set('vary', value)
  else if (!vary.toLowerCase().split(/\s*,\s*/).includes(value.toLowerCase()) && vary.trim() !== '*') headers.set('vary', `${vary}, ${value}`)
}

/**
 * A rendered page or API answer as it should cross the wire: compressed with the client's best coding when it
 * is text of at least COMPRESS_MIN_BYTES, with an entity tag on a successful GET of that size, and a 304 when the client
 * already has it. Event streams, ranges, already-encoded and bodiless answers pass through untouched.
 */
export async function deliver(request: Request, response: Response): Promise<Response> {
  const method = request.method
  if ((method !== 'GET' && method !== 'HEAD' && method !== 'POST' && method !== 'PUT' && method !== 'PATCH' && method !== 'DELETE') || !response.body) return response
  const headers = response.headers
  if (!compressibleType(headers.get('content-type')) || headers.has('content-encoding') || headers.has('content-range')) return response
  // An answer that asks to reach the client byte for byte (the chat stream says so too).
  if (/no-transform/i.test(headers.get('cache-control') ?? '')) return response
  const length = headers.get('content-length')
  if (length !== null && Number(length) < COMPRESS_MIN_BYTES) return response
  const body = new Uint8Array(await response.arrayBuffer())
  if (body.length < COMPRESS_MIN_BYTES) return new Response(body, response)
  const out = new Headers(headers)
  const tagged = method === 'GET' && response.status === 200 && !out.has('etag')
  if (tagged) {
    const etag = entityTag(body)
    out.set('etag', etag)
    if (notModified(request.headers.get('if-none-match'), etag)) {
      out.delete('content-length')
      out.delete('content-type')
      return new Response(null, { status: 304, headers: out })
    }
  }
  addVary(out, 'Accept-Encoding')
  const coding = negotiateEncoding(request.headers.get('accept-encoding'))
  if (coding === 'identity') return new Response(body, { status: response.status, statusText: response.statusText, headers: out })
  const encoded = compressFast(body, coding)
  out.set('content-encoding', coding)
  out.delete('content-length')
  if (tagged) out.set('etag', entityTag(body, coding))
  return new Response(encoded, { status: response.status, statusText: response.statusText, headers: out })
}
