// `npm start`: build what is missing, bring the API up (migrations, embedded database when DATABASE_URL
// is unset), then serve the site and /api/v1 from this one Bun process.
import { existsSync, statSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildSite, siteDir } from './build'
import { startRuntime } from '../api/runtime'
import { exposeRuntime, siteBridge } from '../api/siteBridge'
import { serveSite } from './serveSite'
import { securityHeaders } from '../api/http/securityHeaders'

const entry = join(siteDir, 'dist', 'server', 'entry.mjs')

function newestMtime(dir: string): number {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

const sources = [join(siteDir, 'src'), join(siteDir, 'public'), join(siteDir, '..', 'locales')].filter(existsSync)
const stale = !existsSync(entry) || Math.max(...sources.map(newestMtime), statSync(join(siteDir, 'astro.config.mjs')).mtimeMs) > statSync(entry).mtimeMs
if (stale) {
  console.log('Building the site…')
  buildSite()
}

const runtime = await startRuntime()
exposeRuntime(runtime)
const bridge = siteBridge()
const { app } = await import(entry)
const server = serveSite({
  app,
  clientDir: join(siteDir, 'dist', 'client'),
  port: runtime.cfg.port,
  hostname: runtime.cfg.host,
  headers: securityHeaders(runtime.cfg).other,
  workerHeaders: securityHeaders(runtime.cfg).worker,
  api: (request, clientAddress) => bridge.refuseMisdirected(request) ?? bridge.handle(request, clientAddress),
})
const model = runtime.ctx.model.describe()
console.log(
  `Ideal Self is running at ${runtime.cfg.publicUrl} (${runtime.ctx.db.kind} database, model: ${model.kind}${model.model ? ` ${model.model}` : ''})`,
)

// One failed page render or request must never take the whole product down.
process.on('unhandledRejection', (reason) => console.error('Unhandled rejection:', reason))
process.on('uncaughtException', (error) => console.error('Uncaught exception:', error))

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: shutting down…`)
  const force = setTimeout(() => process.exit(1), 10_000)
  await server.stop()
  await runtime.close()
  clearTimeout(force)
  process.exit(0)
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
