// Serves the built site from Bun.serve: files of dist/client directly (with the brotli and gzip forms the build
// wrote beside them), everything else through Astro's App (whose middleware hands /api/v1/* to the Elysia app
// in-process), compressed on the way out when that pays (api/http/delivery.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { addVary, deliver, entityTag, fileCacheControl, negotiateEncoding, notModified, type Coding } from '../api/http/delivery'

interface AstroApp {
  render(request: Request, opts?: { clientAddress?: string }): Promise<Response>
}

interface StaticFile {
  path: string
  etag: string
  /** The precompressed forms the build wrote (file.br, file.gz), by coding. */
  encoded: Partial<Record<Exclude<Coding, 'identity'>, { path: string; etag: string }>>
}

const ENCODED_SUFFIX: Record<string, Exclude<Coding, 'identity'>> = { '.br': 'br', '.gz': 'gzip' }

function listFiles(root: string, dir = root, out = new Map<string, string>()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) listFiles(root, p, out)
    else out.set('/' + relative(root, p).split(sep).join('/'), p)
  }
  return out
}

/** The files of the build by URL path, each with its tag and its precompressed forms (read once at start). */
export function staticFiles(clientDir: string): Map<string, StaticFile> {
  const all = listFiles(clientDir)
  const files = new Map<string, StaticFile>()
  for (const [url, path] of all) {
    const suffix = url.slice(url.lastIndexOf('.'))
    if (ENCODED_SUFFIX[suffix] && all.has(url.slice(0, -suffix.length))) continue
    const content = readFileSync(path)
    const file: StaticFile = { path, etag: entityTag(content), encoded: {} }
    for (const [ext, coding] of Object.entries(ENCODED_SUFFIX)) {
      const encodedPath = all.get(url + ext)
      if (encodedPath) file.encoded[coding] = { path: encodedPath, etag: entityTag(content, coding) }
    }
    files.set(url, file)
  }
  return files
}

export function serveFile(request: Request, pathname: string, file: StaticFile, headers: Record<string, string> = {}): Response {
  const available = Object.keys(file.encoded) as Coding[]
  const coding = available.length ? negotiateEncoding(request.headers.get('accept-encoding'), available) : 'identity'
  const variant = coding === 'identity' ? null : file.encoded[coding]!
  const out = new Headers(headers)
  out.set('cache-control', fileCacheControl(pathname))
  out.set('x-content-type-options', 'nosniff')
  out.set('etag', variant?.etag ?? file.etag)
  if (available.length) addVary(out, 'Accept-Encoding')
  if (notModified(request.headers.get('if-none-match'), file.etag)) return new Response(null, { status: 304, headers: out })
  const body = Bun.file(file.path)
  if (!variant) return new Response(body, { headers: out })
  // The type is the original file's, not that of the .br/.gz beside it.
  out.set('content-type', body.type)
  out.set('content-encoding', coding)
  return new Response(Bun.file(variant.path), { headers: out })
}

export function serveSite(opts: {
  app: AstroApp
  clientDir: string
  port: number
  hostname: string
  headers?: Record<string, string>
  /** Headers of the service worker script, whose own policy governs what the worker may fetch. */
  workerHeaders?: Record<string, string>
  /**
   * Answers /api/v1 directly, without Astro's App and middleware around it (routing, locals and cookies for a
   * page cost a third of an API request's time); without it, the middleware hands API requests over.
   */
  api?: (request: Request, clientAddress: string) => Response | Promise<Response>
}) {
  const files = staticFiles(opts.clientDir)
  return Bun.serve({
    port: opts.port,
    hostname: opts.hostname,
    // Streams (chat replies) may stay quiet while a model loads; the API sends its own heartbeats.
    idleTimeout: 0,
    // Each API route refuses a body over its own limit with a 413 (api/http/bodyLimit.ts); a cap here would
    // instead drop the connection with no answer.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    async fetch(request, server) {
      const { pathname } = new URL(request.url)
      const file = request.method === 'GET' || request.method === 'HEAD' ? files.get(pathname) : undefined
      if (file) return serveFile(request, pathname, file, pathname === '/sw.js' ? (opts.workerHeaders ?? opts.headers) : opts.headers)
      const clientAddress = server.requestIP(request)?.address ?? 'unknown'
      if (opts.api && (pathname === '/api/v1' || pathname.startsWith('/api/v1/'))) return deliver(request, await opts.api(request, clientAddress))
      return deliver(request, await opts.app.render(request, { clientAddress }))
    },
    error(error) {
      console.error(error)
      return new Response('Unknown Server Error', { status: 500 })
    },
  })
}
