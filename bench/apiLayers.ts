// Where the time of GET /api/v1/self goes, layer by layer, in one process with no HTTP in between: each step adds
// one layer to the one before, so the drop from row to row is that layer's cost. 50 requests in flight, ROUNDS
// rounds of SECONDS seconds per step, steps interleaved within each round; median requests per second.
// Needs a build (npm run build). Run: npx bun bench/apiLayers.ts   (DATABASE_URL as bench/api.ts)
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { jwtVerify } from 'jose'
import { loadConfig } from '../api/config'
import { startRuntime } from '../api/runtime'
import { exposeRuntime, siteBridge } from '../api/siteBridge'
import { signedInUser } from '../api/http/guard'
import { toUser, type UserRow } from '../api/users/users'
import { deliver } from '../api/http/delivery'
import { siteDir } from '../scripts/build'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const IN_FLIGHT = 50
let databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  const name = `idealself_layers_${Date.now()}`
  spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-q', '-c', `create database ${name}`], { stdio: 'inherit' })
  databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`
}
const cfg = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-layers-')), LLM_PROVIDER: 'offline', PUBLIC_URL: 'http://localhost:4531', SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789' })
const rt = await startRuntime(cfg, { log: () => {} })
exposeRuntime(rt)
const bridge = siteBridge()
const { app: astro } = await import(join(siteDir, 'dist', 'server', 'entry.mjs'))

const { idToken } = (await (await rt.app.handle(new Request('http://localhost:4531/api/v1/auth/dev/token', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `layers-${Date.now()}@example.com`, name: 'Layers' }),
}))).json()) as { idToken: string }
const login = await rt.app.handle(new Request('http://localhost:4531/api/v1/auth/login/oauth', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken, strategy: 'google', isWeb: true }),
}))
const cookie = login.headers.getSetCookie()[0].split(';')[0]
const token = cookie.split('=')[1]
const secret = new TextEncoder().encode(cfg.sessionSecret)
const url = 'http://localhost:4531/api/v1/self'
const req = () => new Request(url, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } })

const bareElysia = new Elysia().get('/api/v1/self', async ({ request }) => {
  const t = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1]
  const { payload } = await jwtVerify(t!, secret, { algorithms: ['HS256'] })
  const [row] = await rt.ctx.sql<UserRow[]>`
    select u.* from sessions s join users u on u.id = s.user_id
    where s.id = ${payload.sub!} and s.revoked_at is null and s.expires_at > now()`
  return toUser(row, 'week')
})

const steps: [string, () => Promise<unknown>][] = [
  ['token check only (jwtVerify)', () => jwtVerify(token, secret, { algorithms: ['HS256'] })],
  ['bare: token + query + JSON', async () => {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const [row] = await rt.ctx.sql<UserRow[]>`
      select u.* from sessions s join users u on u.id = s.user_id
      where s.id = ${payload.sub!} and s.revoked_at is null and s.expires_at > now()`
    return Response.json(toUser(row, 'week'))
  }],
  ['session check (signedInUser)', () => signedInUser(rt.ctx, token)],
  ['bare Elysia, same query', async () => (await bareElysia.handle(req())).text()],
  ['our Elysia app (rt.app.handle)', async () => (await rt.app.handle(req())).text()],
  ['+ Astro App and middleware (app.render)', async () => (await astro.render(req(), { clientAddress: '127.0.0.1' })).text()],
  ['+ delivery (compression, tags)', async () => (await deliver(req(), await astro.render(req(), { clientAddress: '127.0.0.1' }))).text()],
  // What `npm start` does now: API requests go to the bridge before Astro's App (scripts/serveSite.ts).
  ['production path: bridge + delivery', async () => {
    const r = req()
    return (await deliver(r, bridge.refuseMisdirected(r) ?? (await bridge.handle(r, '127.0.0.1')))).text()
  }],
]

async function throughput(fn: () => Promise<unknown>) {
  const until = performance.now() + SECONDS * 1000
  let done = 0
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < until) {
      await fn()
      done++
    }
  }))
  return done / SECONDS
}

const results = new Map<string, number[]>(steps.map(([name]) => [name, []]))
for (const [, fn] of steps) await throughput(fn) // warm-up
for (let r = 0; r < ROUNDS; r++) for (const [name, fn] of steps) results.get(name)!.push(await throughput(fn))
await rt.close()

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const bare = median(results.get('bare: token + query + JSON')!)
console.log(`\n${IN_FLIGHT} in flight, ${ROUNDS} rounds × ${SECONDS} s, in one process (no HTTP)\n`)
console.log('| step | req/s median (each round) | % of bare |\n|---|---|---|')
for (const [name, xs] of results) console.log(`| ${name} | ${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(' / ')}) | ${((median(xs) / bare) * 100).toFixed(0)} % |`)
