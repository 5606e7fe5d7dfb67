// The API alone (for running several instances behind a load balancer); `npm start` serves site and API together.
import { startRuntime } from './runtime'
import { recordClientIp } from './http/guard'
import { misdirected } from './http/publicOrigin'

const runtime = await startRuntime()
const { port, host } = runtime.cfg
const server = Bun.serve({
  port,
  hostname: host,
  idleTimeout: 0,
  // Each route refuses a body over its own limit with a 413 (http/bodyLimit.ts) instead of a dropped connection.
  maxRequestBodySize: Number.MAX_SAFE_INTEGER,
  fetch(request, srv) {
    const refusal = misdirected(request, runtime.cfg.publicUrl, runtime.cfg.production)
    if (refusal) return Response.json(refusal, { status: refusal.statusCode })
    recordClientIp(request, srv.requestIP(request)?.address ?? 'unknown')
    return runtime.app.handle(request)
  },
})
console.log(`Ideal Self API listening on http://${host}:${server.port}/api/v1 (${runtime.ctx.db.kind} database)`)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    await server.stop()
    await runtime.close()
    process.exit(0)
  })
