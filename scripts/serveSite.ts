// Serves the built site from Bun.serve: files of dist/client directly, everything else through Astro's
// App (whose middleware hands /api/v1/* to the Elysia app in-process).
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

interface AstroApp {
  render(request: Request, opts?: { clientAddress?: string }): Promise<Response>
}

function listFiles(root: string, dir = root, out = new Map<string, string>()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) listFiles(root, p, out)
    else out.set('/' + relative(root, p).split(sep).join('/'), p)
  }
  return out
}

export function serveSite(opts: { app: AstroApp; clientDir: string; port: number; hostname: string; headers?: Record<string, string> }) {
  const files = listFiles(opts.clientDir)
  return Bun.serve({
    port: opts.port,
    hostname: opts.hostname,
    // Streams (chat replies) may stay quiet while a model loads; the API sends its own heartbeats.
    idleTimeout: 0,
    // Each API route refuses a body over its own limit with a 413 (api/http/bodyLimit.ts); a cap here would
    // instead drop the connection with no answer.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(request, server) {
      const { pathname } = new URL(request.url)
      const file = request.method === 'GET' || request.method === 'HEAD' ? files.get(pathname) : undefined
      if (file) {
        // Hashed build assets never change; other public files are revalidated.
        const immutable = pathname.startsWith('/_astro/')
        return new Response(Bun.file(file), {
          headers: { ...opts.headers, 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
        })
      }
      return opts.app.render(request, { clientAddress: server.requestIP(request)?.address ?? 'unknown' })
    },
    error(error) {
      console.error(error)
      return new Response('Unknown Server Error', { status: 500 })
    },
  })
}
