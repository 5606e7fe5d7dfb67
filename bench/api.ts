// GET /api/v1/self and POST /api/v1/feedbacks/bot-response-message for a signed-in user on the production build
// (`npm start`: Bun.serve → own Bun adapter, API requests straight to Elysia), beside the same site built with
// the design's @astrojs/node adapter (bench/nodeAdapterServer.ts), a bare Elysia app and a bare Bun.serve +
// postgres.js doing the same query and insert (bench/baselineSelfServer.ts). Same load tool (autocannon, run from
// a separate Node process), one server under load at a time, RUNS rounds interleaved (every server once per
// round, in turn) so a slow spell of the machine hits all of them; every run is printed, the median is the figure.
// Run: npx bun bench/api.ts   (RUNS=5, BENCH_SECONDS=10, BENCH_PORT=4501; DATABASE_URL if set, else a new
// database on the local PostgreSQL)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const RUNS = Number(process.env.RUNS ?? 5)
const PORT = Number(process.env.BENCH_PORT ?? 4501)
const secret = 'bench-session-secret-0123456789abcdef0123456789'
let databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  const name = `idealself_bench_${Date.now()}`
  spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-q', '-c', `create database ${name}`], { stdio: 'inherit' })
  databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`
}
const env = { ...process.env, DATABASE_URL: databaseUrl, SESSION_SECRET: secret, LLM_PROVIDER: 'offline', DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-bench-')), ASTRO_NODE_LOGGING: 'disabled' }

async function waitFor(url: string) {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await Bun.sleep(500)
  }
  throw new Error(`${url} did not come up`)
}

interface Load { rps: number; p50: number; p99: number }
function load(url: string, cookie: string, body?: string): Load {
  const args = ['autocannon', '-j', '-c', String(CONNECTIONS), '-d', String(DURATION), '-H', `cookie=${cookie}`]
  if (body) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', body)
  const r = spawnSync('npx', [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const out = JSON.parse(r.stdout)
  if (out.non2xx || out.errors) throw new Error(`${url}: ${out.non2xx} non-2xx, ${out.errors} errors`)
  return { rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99 }
}

const stop = (c: ChildProcess) => new Promise((r) => {
  if (c.exitCode !== null) return r(null)
  c.once('exit', r)
  c.kill('SIGTERM')
})

// Each server in turn: it alone runs while it is measured (2 cores: two at once would share the CPU).
interface Server { name: string; start(): Promise<ChildProcess>; self: string; feedback: string; page?: string }
const appEnv = (port: number) => ({ ...env, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` })
const servers: Server[] = [
  {
    name: 'npm start (own Bun adapter)',
    start: async () => spawn(process.execPath, ['scripts/start.ts'], { env: appEnv(PORT), stdio: 'ignore' }),
    self: `http://localhost:${PORT}/api/v1/self`,
    feedback: `http://localhost:${PORT}/api/v1/feedbacks/bot-response-message`,
    page: `http://localhost:${PORT}/app/settings`,
  },
  {
    name: '@astrojs/node adapter',
    start: async () => spawn(process.execPath, ['bench/nodeAdapterServer.ts'], { env: appEnv(PORT + 1), stdio: 'ignore' }),
    self: `http://localhost:${PORT + 1}/api/v1/self`,
    feedback: `http://localhost:${PORT + 1}/api/v1/feedbacks/bot-response-message`,
    page: `http://localhost:${PORT + 1}/app/settings`,
  },
  {
    name: 'bare Elysia + postgres.js',
    start: async () => spawn(process.execPath, ['bench/baselineSelfServer.ts'], { env: { ...env, PORT: String(PORT + 2), BASELINE: 'elysia' }, stdio: 'ignore' }),
    self: `http://127.0.0.1:${PORT + 2}/`,
    feedback: `http://127.0.0.1:${PORT + 2}/feedback`,
  },
  {
    name: 'bare Bun.serve + postgres.js',
    start: async () => spawn(process.execPath, ['bench/baselineSelfServer.ts'], { env: { ...env, PORT: String(PORT + 3) }, stdio: 'ignore' }),
    self: `http://127.0.0.1:${PORT + 3}/`,
    feedback: `http://127.0.0.1:${PORT + 3}/feedback`,
  },
]

// The node adapter's build, made before anything is timed.
spawnSync(process.execPath, ['bench/nodeAdapterServer.ts', '--build-only'], { stdio: 'inherit', env })

// A signed-in person with one reply of their Ideal Self to give feedback on (through the app, once).
const setup = await servers[0].start()
const base = `http://localhost:${PORT}/api/v1`
await waitFor(`${base}/health`)
const json = async (path: string, body: unknown, cookie = '') => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return { body: (await res.json()) as any, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') }
}
const { idToken } = (await json('/auth/dev/token', { email: `bench-${Date.now()}@example.com`, name: 'Bench' })).body
const cookie = (await json('/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })).cookie
await json('/chatbots/training-data/user-name', { userName: 'Bench' }, cookie)
await json('/chatbots/training-data/improved-ideal-self-description', { idealSelfDescription: 'A calm, brave writer' }, cookie)
const { characterId } = (await json('/chatbots/characters?skipChatHistoryUpload=true', { userName: 'Bench', idealSelfDescription: 'A calm, brave writer' }, cookie)).body
for (let i = 0; i < 240; i++) {
  if (((await (await fetch(`${base}/chatbots/characters/${characterId}`, { headers: { cookie } })).json()) as any).isReady) break
  await Bun.sleep(500)
}
const { id: conversationId } = (await json('/chatbots/conversations', { name: 'Bench' }, cookie)).body
const reply = (await json(`/chatbots/conversations/${conversationId}/character/${characterId}/chat?sse=false`, {
  text: 'I want to write every morning', currentDateTime: 'Sunday 2026-11-22 10:30:00',
}, cookie)).body
const feedbackBody = JSON.stringify({ messageId: reply.newChatbotMessage.id, feedbackText: 'This helped me start' })
await stop(setup)

const results = new Map<string, { self: Load[]; feedback: Load[]; page: Load[] }>(servers.map((s) => [s.name, { self: [], feedback: [], page: [] }]))
for (let round = 0; round <= RUNS; round++) {
  for (const s of servers) {
    const child = await s.start()
    try {
      await waitFor(s.self.replace(/\/api\/v1\/self$/, '/api/v1/health'))
      // Round 0 warms up (JIT, connection pools, the OS's caches) and is not counted.
      const self = load(s.self, cookie)
      const feedback = load(s.feedback, cookie, feedbackBody)
      // A whole page (the settings, rendered for the person) where the server renders pages.
      const page = s.page ? load(s.page, cookie) : null
      if (round > 0) {
        results.get(s.name)!.self.push(self)
        results.get(s.name)!.feedback.push(feedback)
        if (page) results.get(s.name)!.page.push(page)
        console.error(`round ${round} ${s.name}: self ${self.rps.toFixed(0)} req/s, feedback ${feedback.rps.toFixed(0)} req/s${page ? `, page ${page.rps.toFixed(0)} req/s` : ''}`)
      }
    } finally {
      await stop(child)
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const bare = servers[3].name
console.log(`\n${CONNECTIONS} connections, ${DURATION} s a run, ${RUNS} interleaved rounds (after one warm-up round), PostgreSQL ${databaseUrl.replace(/\/\/.*@/, '//…@')}\n`)
for (const route of ['self', 'feedback'] as const) {
  const baseline = median(results.get(bare)![route].map((r) => r.rps))
  console.log(`${route === 'self' ? 'GET /api/v1/self' : 'POST /api/v1/feedbacks/bot-response-message'}\n`)
  console.log('| server | req/s median | every run | p50 ms (median) | p99 ms (median) | % of bare Bun.serve (median; each run against the same round) |\n|---|---|---|---|---|---|')
  for (const s of servers) {
    const runs = results.get(s.name)![route]
    const rps = runs.map((r) => r.rps)
    const paired = runs.map((r, i) => ((r.rps / results.get(bare)![route][i].rps) * 100).toFixed(0)).join(' / ')
    console.log(`| ${s.name} | ${median(rps).toFixed(0)} | ${rps.map((x) => x.toFixed(0)).join(' / ')} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${((median(rps) / baseline) * 100).toFixed(1)} % (${paired}) |`)
  }
  console.log('')
}
console.log('GET /app/settings (a page rendered for the signed-in person)\n')
console.log('| server | req/s median | every run | p50 ms (median) | p99 ms (median) |\n|---|---|---|---|---|')
for (const s of servers.filter((x) => x.page)) {
  const runs = results.get(s.name)!.page
  console.log(`| ${s.name} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${runs.map((r) => r.rps.toFixed(0)).join(' / ')} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} |`)
}
