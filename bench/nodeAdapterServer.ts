// The site and API as the design first had them: Astro's @astrojs/node adapter (standalone handler: static files,
// then the App) on node:http as Bun provides it, with the API handed over by the same middleware. Only for the
// benchmarks, beside `npm start` (own Bun adapter, scripts/serveSite.ts). Builds dist-node/ when it is missing.
import { createServer } from 'node:http'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { startRuntime } from '../api/runtime'
import { exposeRuntime } from '../api/siteBridge'
import { siteDir } from '../scripts/build'

const entry = join(siteDir, 'dist-node', 'server', 'entry.mjs')
if (!existsSync(entry) || process.argv.includes('--build')) {
  const r = spawnSync(process.execPath, ['--bun', 'astro', 'build'], { cwd: siteDir, stdio: 'inherit', env: { ...process.env, SITE_ADAPTER: 'node' } })
  if (r.status !== 0) throw new Error('node adapter build failed')
}
if (process.argv.includes('--build-only')) process.exit(0)
process.env.ASTRO_NODE_AUTOSTART = 'disabled'
const runtime = await startRuntime()
exposeRuntime(runtime)
const { handler } = await import(entry)
const server = createServer(handler).listen(runtime.cfg.port, runtime.cfg.host, () => console.log(`@astrojs/node on ${runtime.cfg.port}`))
process.on('SIGTERM', () => {
  server.close()
  void runtime.close().then(() => process.exit(0))
})
