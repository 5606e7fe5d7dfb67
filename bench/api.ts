// GET /api/v1/self for a signed-in user: the production build (`npm start`, site + API in one process)
// versus a bare Bun.serve + postgres.js baseline doing the same query; same load tool (autocannon), same run.
// Run: npx bun bench/api.ts   (uses DATABASE_URL if set, else creates a database on the local PostgreSQL)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const DURATION = Number(process.env.BENCH_SECONDS ?? 15)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const secret = 'bench-session-secret-0123456789abcdef0123456789'
let databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  const name = `idealself_bench_${Date.now()}`
  spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-q', '-c', `create database ${name}`], { stdio: 'inherit' })
  databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`
}
const env = { ...process.env, DATABASE_URL: databaseUrl, SESSION_SECRET: secret, LLM_PROVIDER: 'offline', DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-bench-')) }

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await Bun.sleep(500)
  }
  throw new Error(`${url} did not come up`)
}

function load(url: string, cookie: string) {
  const r = spawnSync('npx', ['autocannon', '-j', '-c', String(CONNECTIONS), '-d', String(DURATION), '-H', `cookie=${cookie}`, url], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const out = JSON.parse(r.stdout)
  if (out.non2xx || out.errors) throw new Error(`${url}: ${out.non2xx} non-2xx, ${out.errors} errors`)
  return { rps: out.requests.average as number, p50: out.latency.p50 as number, p99: out.latency.p99 as number }
}

const stop = (c: ChildProcess) => new Promise((r) => { c.once('exit', r); c.kill('SIGTERM') })

const app = spawn(process.execPath, ['scripts/start.ts'], { env: { ...env, PORT: '4501', PUBLIC_URL: 'http://localhost:4501', ASTRO_NODE_LOGGING: 'disabled' }, stdio: 'ignore' })
await waitFor('http://localhost:4501/api/v1/health')
const { idToken } = await (await fetch('http://localhost:4501/api/v1/auth/dev/token', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, name: 'Bench' }),
})).json()
const login = await fetch('http://localhost:4501/api/v1/auth/login/oauth', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken, strategy: 'google', isWeb: true }),
})
const cookie = login.headers.getSetCookie()[0].split(';')[0]
const baseline = spawn(process.execPath, ['bench/baselineSelfServer.ts'], { env: { ...env, PORT: '4502' }, stdio: 'ignore' })
await waitFor('http://127.0.0.1:4502/')

// Warm both up, then measure one after the other (2 cores: running them at once would share the CPU).
load('http://localhost:4501/api/v1/self', cookie)
load('http://127.0.0.1:4502/', cookie)
const ours = load('http://localhost:4501/api/v1/self', cookie)
const base = load('http://127.0.0.1:4502/', cookie)
await stop(app)
await stop(baseline)

const ratio = ours.rps / base.rps
const row = (name: string, r: typeof ours) => `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} |`
console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, PostgreSQL ${databaseUrl.replace(/\/\/.*@/, '//…@')}\n`)
console.log('| server | req/s | p50 ms | p99 ms |\n|---|---|---|---|')
console.log(row('npm start (Astro + Elysia, one process)', ours))
console.log(row('bare Bun.serve + postgres.js', base))
console.log(`\nratio: ${(ratio * 100).toFixed(1)} % of the baseline (budget ≥ 70 %)`)
