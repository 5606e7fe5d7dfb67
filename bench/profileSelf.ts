// A CPU profile of GET /api/v1/self through a chosen layer, for finding where the time goes:
//   npx bun --cpu-prof --cpu-prof-dir=bench/out/prof bench/profileSelf.ts [elysia|astro]
// then read the .cpuprofile in a profiler (self time by function).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../api/config'
import { startRuntime } from '../api/runtime'
import { exposeRuntime } from '../api/siteBridge'
import { siteDir } from '../scripts/build'

const layer = process.argv[2] ?? 'elysia'
const cfg = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-prof-')), LLM_PROVIDER: 'offline', PUBLIC_URL: 'http://localhost:4531' })
const rt = await startRuntime(cfg, { log: () => {} })
exposeRuntime(rt)
const { app: astro } = await import(join(siteDir, 'dist', 'server', 'entry.mjs'))
const post = (path: string, body: unknown) =>
  rt.app.handle(new Request(`http://localhost:4531/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
const { idToken } = (await (await post('/auth/dev/token', { email: `prof-${Date.now()}@example.com`, name: 'Prof' })).json()) as { idToken: string }
const cookie = (await post('/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })).headers.getSetCookie()[0].split(';')[0]
const req = () => new Request('http://localhost:4531/api/v1/self', { headers: { cookie } })
const call = layer === 'astro' ? () => astro.render(req(), { clientAddress: '127.0.0.1' }) : () => rt.app.handle(req())
const until = performance.now() + Number(process.env.SECONDS ?? 8) * 1000
let n = 0
await Promise.all(Array.from({ length: 50 }, async () => {
  while (performance.now() < until) {
    await (await call()).text()
    n++
  }
}))
console.log(`${layer}: ${n} requests`)
await rt.close()
