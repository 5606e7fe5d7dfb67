/**
 * Chat streaming benchmark (DESIGN §9: ≤ 5 ms median added to a model's first token; 1,000 concurrent streaming
 * chats on one instance with no error).
 *
 *   npx bun bench/chat.ts                         # embedded PGlite
 *   DATABASE_URL=postgres://… npx bun bench/chat.ts
 *   npx bun bench/chat.ts --requests 200 --streams 1000 --path site
 *
 * Three parts in two processes:
 * - this process runs a stand-in Ollama (Bun.serve speaking NDJSON) and the clients;
 * - a child process runs the real API (startRuntime with LLM_PROVIDER=ollama pointing at the stand-in) and
 *   creates the PREMIUM users, characters and conversations it needs. It serves either the way `npm start` does
 *   (--path site: the built site's Bun.serve → Astro → middleware → Elysia; needs `npm run build` first) or the
 *   way api/server.ts does (--path api: Bun.serve → Elysia). Both by default.
 * Model server and clients share one clock, so "added" is exact: the moment the client has parsed its first
 * `delta` event minus the moment the model server wrote its first byte for that request.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readEvents } from '../tests/unit/chat/chatFixtures'

const NOW_TEXT = 'Sunday 2026-11-22 10:30:00'
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const arg = (name: string, fallback: number) => Number(option(name) ?? fallback)
type ServePath = 'site' | 'api'

// Bun's fetch allows 256 requests in flight per process unless told otherwise; both processes need more.
const MAX_HTTP = '8192'
if (process.env.BUN_CONFIG_MAX_HTTP_REQUESTS !== MAX_HTTP) {
  const again = Bun.spawn([process.execPath, ...process.argv.slice(1)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP },
    stdio: ['inherit', 'inherit', 'inherit'],
  })
  process.exit(await again.exited)
}

interface Fixture {
  port: number
  chats: { cookie: string; path: string }[]
}

/** The child: the API on a free port, with `--chats` ready conversations. */
async function serve() {
  const { loadConfig } = await import('../api/config')
  const { startRuntime } = await import('../api/runtime')
  const { createSession } = await import('../api/auth/sessions')
  const dataDir = mkdtempSync(join(tmpdir(), 'idealself-bench-chat-'))
  const rt = await startRuntime(
    loadConfig({ ...process.env, DATA_DIR: dataDir, LLM_PROVIDER: 'ollama', OLLAMA_HOST: process.env.BENCH_MODEL_URL, OLLAMA_MODEL: 'bench' }),
    { log: () => {} },
  )
  const { sql } = rt.ctx
  const chats: Fixture['chats'] = []
  const perUser = 10
  const run = Date.now().toString(36)
  for (let u = 0; u < arg('chats', 1000) / perUser; u++) {
    const [user] = await sql<{ id: string }[]>`
      insert into users (email, name, subscription_type) values (${`bench-${run}-${u}@example.com`}, 'Bench', 'PREMIUM') returning id`
    const [character] = await sql<{ id: string }[]>`
      insert into characters (user_id, name, is_ready, prompt) values (${user.id}, 'Ideal Self', true, 'You are the calm ideal self of the person.')
      returning id`
    const { token } = await createSession(sql, rt.ctx.sessionKeys, user.id, {})
    for (let c = 0; c < perUser; c++) {
      const [conversation] = await sql<{ id: string }[]>`
        insert into conversations (user_id, character_id, name) values (${user.id}, ${character.id}, 'bench') returning id`
      chats.push({ cookie: `${rt.ctx.cookieName}=${token}`, path: `/api/v1/chatbots/conversations/${conversation.id}/character/${character.id}/chat` })
    }
  }
  const server = option('path') === 'site' ? await serveLikeNpmStart(rt) : Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 0, fetch: (request) => rt.app.handle(request) })
  console.log(JSON.stringify({ port: server.port, chats } satisfies Fixture))
  process.on('SIGTERM', async () => {
    await server.stop(true)
    await rt.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  })
}

/** What scripts/start.ts does after startRuntime, on a free port. */
async function serveLikeNpmStart(rt: import('../api/runtime').Runtime) {
  const { siteDir } = await import('../scripts/build')
  const { serveSite } = await import('../scripts/serveSite')
  const { exposeRuntime } = await import('../api/siteBridge')
  const entry = join(siteDir, 'dist', 'server', 'entry.mjs')
  if (!existsSync(entry)) throw new Error('No built site: run `npm run build` first, or use --path api')
  exposeRuntime(rt)
  const { app } = await import(entry)
  return serveSite({ app, clientDir: join(siteDir, 'dist', 'client'), port: 0, hostname: '127.0.0.1' })
}

/** A stand-in Ollama: `words` deltas `pauseMs` apart; notes when it wrote the first byte for each request. */
function modelServer(pace: { words: number; pauseMs: number }) {
  const firstByteAt = new Map<string, number>()
  const line = (content: string, done = false) =>
    `${JSON.stringify({ model: 'bench', created_at: new Date().toISOString(), message: { role: 'assistant', content }, done, ...(done ? { done_reason: 'stop' } : {}) })}\n`
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      const body = await request.json()
      const key = body.messages.at(-1).content as string
      const encoder = new TextEncoder()
      return new Response(
        new ReadableStream({
          async start(controller) {
            for (let i = 0; i < pace.words; i++) {
              // Noted before the write: the socket's own latency counts against us, not for us.
              if (i === 0) firstByteAt.set(key, performance.now())
              controller.enqueue(encoder.encode(line(`word${i} `)))
              if (pace.pauseMs) await Bun.sleep(pace.pauseMs)
            }
            controller.enqueue(encoder.encode(line('', true)))
            controller.close()
          },
        }),
        { headers: { 'content-type': 'application/x-ndjson' } },
      )
    },
  })
  return { url: server.url.origin, pace, firstByteAt, stop: () => server.stop(true) }
}

interface Outcome {
  ok: boolean
  sentAt: number
  firstDeltaAt: number | null
  problem?: string
}

async function chat(base: string, target: Fixture['chats'][number], text: string, onOpen?: () => void, onClose?: () => void): Promise<Outcome> {
  const sentAt = performance.now()
  let firstDeltaAt: number | null = null
  try {
    const res = await fetch(base + target.path, {
      method: 'POST',
      headers: { cookie: target.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ text, currentDateTime: NOW_TEXT }),
    })
    if (res.status !== 200) return { ok: false, sentAt, firstDeltaAt, problem: `HTTP ${res.status} ${await res.text()}` }
    onOpen?.()
    let done = false
    for await (const event of readEvents(res.body!)) {
      if (event.event === 'delta') firstDeltaAt ??= event.at
      if (event.event === 'error') return { ok: false, sentAt, firstDeltaAt, problem: `error event ${JSON.stringify(event.data)}` }
      if (event.event === 'done') done = true
    }
    return done ? { ok: true, sentAt, firstDeltaAt } : { ok: false, sentAt, firstDeltaAt, problem: 'stream ended without done' }
  } catch (error) {
    return { ok: false, sentAt, firstDeltaAt, problem: String(error) }
  } finally {
    onClose?.()
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const ms = (n: number) => `${n.toFixed(2)} ms`
const memory = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Number(/\d+/.exec(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field))!)![0]) / 1024

async function startApi(modelUrl: string, chats: number, path: ServePath) {
  const child = Bun.spawn([process.execPath, import.meta.path, '--serve', '--chats', String(chats), '--path', path], {
    env: { ...process.env, BENCH_MODEL_URL: modelUrl },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = child.stdout.getReader()
  let text = ''
  while (!text.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the API process exited before it was ready')
    text += new TextDecoder().decode(value)
  }
  return { child, fixture: JSON.parse(text) as Fixture }
}

async function main() {
  const requests = arg('requests', 200)
  const streams = arg('streams', 1000)
  const paths: ServePath[] = option('path') ? [option('path') as ServePath] : ['site', 'api']
  let failed = 0
  for (const path of paths) {
    const model = modelServer({ words: 20, pauseMs: 0 })
    const { child, fixture } = await startApi(model.url, Math.max(streams, 10), path)
    try {
      console.log(`\n## --path ${path}: API pid ${child.pid} on port ${fixture.port} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`)
      failed += await measure(model, child.pid, fixture, requests, streams)
    } finally {
      child.kill('SIGTERM')
      await child.exited
      model.stop()
    }
  }
  process.exitCode = failed ? 1 : 0
}

async function measure(model: ReturnType<typeof modelServer>, pid: number, fixture: Fixture, requests: number, streams: number) {
  const warmup = 20
  const base = `http://127.0.0.1:${fixture.port}`

  // (a) Sequential chats: what the server adds between the model's first byte and the client's first delta.
  const added: number[] = []
  const firstDelta: number[] = []
  for (let i = 0; i < warmup + requests; i++) {
    const text = `latency ${i}`
    const outcome = await chat(base, fixture.chats[i % 10], text)
    if (!outcome.ok || outcome.firstDeltaAt === null) throw new Error(`latency request ${i} failed: ${outcome.problem}`)
    if (i < warmup) continue
    added.push(outcome.firstDeltaAt - model.firstByteAt.get(text)!)
    firstDelta.push(outcome.firstDeltaAt - outcome.sentAt)
  }
  added.sort((a, b) => a - b)
  firstDelta.sort((a, b) => a - b)
  console.log(`\n(a) ${requests} sequential streaming chats (after ${warmup} warm-up), model streams instantly`)
  console.log(`    added after the model's first byte: median ${ms(percentile(added, 50))}, p99 ${ms(percentile(added, 99))}, max ${ms(added.at(-1)!)}`)
  console.log(`    request sent → first delta (incl. session, checks, transaction): median ${ms(percentile(firstDelta, 50))}, p99 ${ms(percentile(firstDelta, 99))}`)

  // (b) Many at once: every stream stays open ~2 s (40 words, 50 ms apart) so they all overlap.
  model.pace.words = 40
  model.pace.pauseMs = 50
  const rssBefore = memory(pid, 'VmRSS')
  writeFileSync(`/proc/${pid}/clear_refs`, '5') // resets VmHWM, so the peak is the burst's own
  let open = 0
  let peakOpen = 0
  const started = performance.now()
  const outcomes = await Promise.all(
    fixture.chats.slice(0, streams).map((target, i) =>
      chat(base, target, `burst ${i}`, () => (peakOpen = Math.max(peakOpen, ++open)), () => open--),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  const failures = outcomes.filter((o) => !o.ok)
  const peakRss = memory(pid, 'VmHWM')
  console.log(`\n(b) ${streams} concurrent streaming chats, each ~2 s of model output`)
  console.log(`    errors: ${failures.length}${failures.length ? ` (first: ${failures[0].problem})` : ''}`)
  console.log(`    peak streams open at once: ${peakOpen}; all done in ${seconds.toFixed(1)} s`)
  console.log(`    API process RSS: ${rssBefore.toFixed(0)} MB before, peak ${peakRss.toFixed(0)} MB during the burst`)
  return failures.length ? 1 : 0
}

if (process.argv.includes('--serve')) await serve()
else await main()
