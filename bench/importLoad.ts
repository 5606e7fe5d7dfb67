/**
 * What a large chat import does to everyone else: the API (`api/server.ts`, PostgreSQL, offline model) in a child
 * process; one person imports a generated WhatsApp export of 5, 25 or 100 MB through the real HTTP API — the
 * name analysis (analyzeNameOnly), the upload, then the analysis job until the import has SUCCEEDED — while another
 * client asks GET /api/v1/health every 50 ms and a third reads its own profile (GET /api/v1/self) every 50 ms.
 * Recorded per run: the other requests' latency (max, p99), the server process's RSS growth over its RSS before the
 * import (peak, from /proc, sampled every 20 ms and VmHWM), the same for the server with its child processes,
 * and how long the import took; and, as the noise floor of a shared machine, the health latency over a quiet
 * 5 s just before the import.
 *
 *   npx bun bench/importLoad.ts                       # 5, 25, 100 MB, 3 runs each, a fresh server per run
 *   npx bun bench/importLoad.ts --mb 25 --runs 1      # one size
 *
 * DATABASE_URL is used when set, else a new database is created on the local PostgreSQL. Each run is bounded
 * (the import must finish within 5 minutes) and the server is stopped after it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderWhatsApp } from '../api/chat-import/renderChatExport'
import { generateExport } from './exports'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'bench', 'out')
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const SIZES = arg('mb') ? [Number(arg('mb'))] : [5, 25, 100]
const RUNS = Number(arg('runs') ?? 3)
const PORT = Number(process.env.BENCH_PORT ?? 4599)
const BASE = `http://127.0.0.1:${PORT}`
const POLL_MS = 50
const QUIET_MS = 5000
const IMPORT_TIMEOUT_MS = 5 * 60_000
const USER = 'Dana Whitfield'

let databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  const name = `idealself_bench_import_${Date.now()}`
  spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-q', '-c', `create database ${name}`], { stdio: 'inherit' })
  databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`
}

function exportOf(mb: number): string {
  mkdirSync(OUT, { recursive: true })
  const path = join(OUT, `import-whatsapp-${mb}mb.txt`)
  if (!existsSync(path)) generateExport(mb * 1024 * 1024, path, (m) => renderWhatsApp(m, 'android-dmy-24h'), mb)
  return path
}

/** Bytes of a /proc status field (VmRSS, VmHWM) of one process; 0 once it is gone. */
function statusBytes(pid: number, field: string): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** The process and every process below it. */
function tree(pid: number): number[] {
  const pids = [pid]
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim()
        if (children) pids.push(...children.split(/\s+/).map(Number))
      }
    } catch {}
  }
  return pids
}

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await Bun.sleep(250)
  }
  throw new Error(`${url} did not come up`)
}

const stop = (c: ChildProcess) =>
  new Promise((resolve) => {
    if (c.exitCode !== null) return resolve(null)
    c.once('exit', resolve)
    c.kill('SIGTERM')
    setTimeout(() => c.kill('SIGKILL'), 10_000).unref()
  })

async function signIn(): Promise<string> {
  const email = `bench-import-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const token = await (await fetch(`${BASE}/api/v1/auth/dev/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, name: 'Bench' }),
  })).json()
  const login = await fetch(`${BASE}/api/v1/auth/login/oauth`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken: token.idToken, strategy: 'google', isWeb: true }),
  })
  if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`)
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

async function readyCharacter(cookie: string): Promise<string> {
  const res = await fetch(`${BASE}/api/v1/chatbots/characters?skipChatHistoryUpload=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ userName: USER, idealSelfDescription: 'Someone who keeps in touch with the people she loves' }),
  })
  const { id } = await res.json()
  for (let i = 0; i < 240; i++) {
    const { isReady } = await (await fetch(`${BASE}/api/v1/chatbots/characters/${id}?selectIsReady=true`, { headers: { cookie } })).json()
    if (isReady) return id
    await Bun.sleep(250)
  }
  throw new Error('the character did not become ready')
}

/** Asks `path` every POLL_MS (each request on its own, so a stalled server shows as long answers) until stopped. */
function poller(path: string, cookie?: string) {
  const latencies: number[] = []
  let failures = 0
  let running = true
  const inFlight = new Set<Promise<void>>()
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const request = fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {} })
        .then(async (res) => {
          await res.arrayBuffer()
          if (res.status !== 200) failures++
          latencies.push(performance.now() - started)
        })
        .catch(() => void failures++)
      inFlight.add(request)
      request.finally(() => inFlight.delete(request))
      await Bun.sleep(POLL_MS)
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      await Promise.all(inFlight)
      return { latencies, failures }
    },
  }
}

function rssSampler(pid: number) {
  let peakOwn = 0
  let peakTree = 0
  const timer = setInterval(() => {
    peakOwn = Math.max(peakOwn, statusBytes(pid, 'VmRSS'))
    peakTree = Math.max(peakTree, tree(pid).reduce((n, p) => n + statusBytes(p, 'VmRSS'), 0))
  }, 20)
  return {
    stop() {
      clearInterval(timer)
      return { peakOwn: Math.max(peakOwn, statusBytes(pid, 'VmHWM')), peakTree: Math.max(peakTree, peakOwn) }
    },
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

interface RunResult {
  quietMax: number
  quietP99: number
  healthMax: number
  healthP99: number
  selfMax: number
  selfP99: number
  requests: number
  failures: number
  rssGrowthMb: number
  treeGrowthMb: number
  importSeconds: number
}

async function oneRun(path: string): Promise<RunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idealself-bench-import-'))
  const server = spawn(process.execPath, ['api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      PUBLIC_URL: BASE,
      LLM_PROVIDER: 'offline',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      CHAT_HISTORY_MAX_BYTES: String(128 * 1024 * 1024),
    },
    stdio: 'ignore',
  })
  try {
    await waitFor(`${BASE}/api/v1/health`)
    const cookie = await signIn()
    const characterId = await readyCharacter(cookie)
    // curl sends the file from disk in its own process: building a 100 MB multipart body here would stall this
    // process's event loop and show up as latency of the other requests.
    const upload = async (query: string, withName: boolean) => {
      const curl = Bun.spawn(
        ['curl', '-sS', '-w', '\n%{http_code}', '-H', `cookie: ${cookie}`, '-F', `files=@${path};filename=chat.txt;type=text/plain`,
          ...(withName ? ['-F', `userName=${USER}`] : []), `${BASE}/api/v1/chatbots/characters/${characterId}/chat-history${query}`],
        { stdout: 'pipe', stderr: 'inherit' },
      )
      const out = await new Response(curl.stdout).text()
      await curl.exited
      const at = out.lastIndexOf('\n')
      return { status: Number(out.slice(at + 1)), body: out.slice(0, at) }
    }
    // Warm the routes up, then let the heap settle before the baseline.
    for (let i = 0; i < 20; i++) await Promise.all([fetch(`${BASE}/api/v1/health`), fetch(`${BASE}/api/v1/self`, { headers: { cookie } })])
    await Bun.sleep(1000)
    const baseline = statusBytes(server.pid!, 'VmRSS')
    const baselineTree = tree(server.pid!).reduce((n, p) => n + statusBytes(p, 'VmRSS'), 0)
    const quiet = poller('/api/v1/health')
    await Bun.sleep(QUIET_MS)
    const q = await quiet.stop()
    writeClearRefs(server.pid!)

    const memory = rssSampler(server.pid!)
    const health = poller('/api/v1/health')
    const self = poller('/api/v1/self', cookie)
    const started = performance.now()
    const names = await upload('?analyzeNameOnly=true', false)
    if (names.status !== 200) throw new Error(`analyzeNameOnly: ${names.status} ${names.body}`)
    const accepted = await upload('', true)
    if (accepted.status !== 202) throw new Error(`upload: ${accepted.status} ${accepted.body}`)
    const { importId } = JSON.parse(accepted.body)
    for (;;) {
      if (performance.now() - started > IMPORT_TIMEOUT_MS) throw new Error('the import did not finish in time')
      const imports = await (await fetch(`${BASE}/api/v1/chatbots/characters/${characterId}/chat-history`, { headers: { cookie } })).json()
      const status = imports.find((i: { id: string }) => i.id === importId)?.status
      if (status === 'SUCCEEDED') break
      if (status === 'FAILED') throw new Error(`import failed: ${JSON.stringify(imports)}`)
      await Bun.sleep(100)
    }
    const importSeconds = (performance.now() - started) / 1000
    const [h, s] = [await health.stop(), await self.stop()]
    const peaks = memory.stop()
    return {
      quietMax: Math.max(...q.latencies),
      quietP99: quantile(q.latencies, 0.99),
      healthMax: Math.max(...h.latencies),
      healthP99: quantile(h.latencies, 0.99),
      selfMax: Math.max(...s.latencies),
      selfP99: quantile(s.latencies, 0.99),
      requests: h.latencies.length + s.latencies.length,
      failures: h.failures + s.failures,
      rssGrowthMb: (peaks.peakOwn - baseline) / 2 ** 20,
      treeGrowthMb: (peaks.peakTree - baselineTree) / 2 ** 20,
      importSeconds,
    }
  } finally {
    await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Resets the server's VmHWM to its current RSS, so the peak read afterwards is the import's own. */
function writeClearRefs(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {}
}

const fmt = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b)
  return [sorted[0], sorted[sorted.length >> 1], sorted[sorted.length - 1]].map((v) => v.toFixed(digits)).join(' / ')
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`load average before: ${load()}`)
console.log('| export | runs | quiet health max / p99 ms | health max ms | health p99 ms | self max ms | self p99 ms | server RSS growth MB | with children MB | import s | failed requests |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const mb of SIZES) {
  const path = exportOf(mb)
  const results: RunResult[] = []
  for (let run = 0; run < RUNS; run++) {
    const result = await oneRun(path)
    console.error(`${mb} MB run ${run + 1}: ${JSON.stringify(result)}`)
    results.push(result)
  }
  const col = (key: keyof RunResult, digits = 0) => fmt(results.map((r) => r[key]), digits)
  const size = (statSync(path).size / 2 ** 20).toFixed(1)
  console.log(
    `| ${size} MB | ${RUNS} | ${col('quietMax')} / ${col('quietP99')} | ${col('healthMax')} | ${col('healthP99')} | ${col('selfMax')} | ${col('selfP99')} | ${col('rssGrowthMb')} | ${col('treeGrowthMb')} | ${col('importSeconds', 1)} | ${results.reduce((n, r) => n + r.failures, 0)} |`,
  )
}
console.log(`load average after: ${load()} (min / median / max over the runs)`)
