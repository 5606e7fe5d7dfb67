// One and two instances of `npm start` behind nginx (deploy/nginx.conf), side by side in one run, and one instance
// reached directly, to measure the proxy's own overhead:
//   - API throughput: a signed-in user's GET /api/v1/self under autocannon (a separate Node process);
//   - chat first-delta latency: POST …/chat (offline provider: the server's own work, no model) until the first
//     delta event, one send at a time; with two instances also how much later a reader on the other instance gets
//     that delta (GET …/messages/{id}/stream, relayed through PostgreSQL).
// Run: npm run bench:scale   (DATABASE_URL or the local PostgreSQL; nginx from Debian; needs the site built)
import { spawnSync } from 'node:child_process'
import { readEvents } from '../tests/unit/chat/chatFixtures'
import { freshDatabase, startCluster, type Cluster } from '../tests/scale/cluster'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SENDS = Number(process.env.BENCH_SENDS ?? 30)
const BASE_PORT = Number(process.env.SCALE_PORT ?? 6100)
const NOW = 'Sunday 2026-11-22 10:30:00'
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const spread = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)} / ${median(xs).toFixed(digits)} / ${Math.max(...xs).toFixed(digits)}`

function load(url: string, cookie: string, warmUp = false) {
  const r = spawnSync('npx', ['autocannon', '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-H', `cookie=${cookie}`, url], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const out = JSON.parse(r.stdout)
  // The warm-up's socket errors are not counted: at idle rates of 12,000 requests a second one in 100,000 fails to
  // connect before the instance's accept queue settles.
  if (!warmUp && (out.non2xx || out.errors)) throw new Error(`${url}: ${out.non2xx} non-2xx, ${out.errors} errors (${out.timeouts} timeouts, ${out.resets} resets, ${out.mismatches} mismatches), ${out.requests.total} requests`)
  return { rps: out.requests.average as number, p50: out.latency.p50 as number, p99: out.latency.p99 as number }
}

async function person(origin: string, cluster: Cluster) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${origin}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
  const { idToken } = await (await post('/auth/dev/token', { email, name: 'Bench' })).json()
  const login = await post('/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })
  const cookie = login.headers.getSetCookie()[0].split(';')[0]
  const userId = (await login.json()).user.id as string
  await cluster.sql`update users set message_limit = 1000000 where id = ${userId}`
  const [character] = await cluster.sql<{ id: string }[]>`
    insert into characters (user_id, name, is_ready, prompt) values (${userId}, 'Mei', true, 'You are Mei.') returning id`
  const conversation = await (await post('/chatbots/conversations', { name: 'Bench' }, cookie)).json()
  return { cookie, conversationId: conversation.id as string, path: `/api/v1/chatbots/conversations/${conversation.id}/character/${character.id}/chat` }
}

/**
 * Milliseconds from sending a message to its first delta; with `others` (the instances by nginx's name for them),
 * also how much later a reader on an instance other than the writer's has it.
 */
async function firstDelta(origin: string, who: Awaited<ReturnType<typeof person>>, others?: Map<string, string>) {
  const t0 = performance.now()
  const res = await fetch(`${origin}${who.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin, cookie: who.cookie },
    body: JSON.stringify({ text: 'How do I stay calm before a hard conversation?', currentDateTime: NOW }),
  })
  let first = 0
  let relayed: Promise<number> | null = null
  const writer = res.headers.get('x-upstream')
  const reader = others && [...others].find(([address]) => address !== writer)?.[1]
  for await (const ev of readEvents(res.body!)) {
    if (ev.event === 'start' && reader) {
      const url = `${reader}/api/v1/chatbots/conversations/${who.conversationId}/messages/${ev.data.botMessageId}/stream`
      relayed = (async () => {
        for await (const e of readEvents((await fetch(url, { headers: { cookie: who.cookie } })).body!)) if (e.event === 'delta') return e.at
        return NaN
      })()
    }
    if (ev.event === 'delta' && !first) first = ev.at
    if (ev.event === 'done' || ev.event === 'error') break
  }
  // The reader joins once the start event is in, so with a reply written this fast it mostly catches up from the
  // stored chunks: the figure is how long after the writer's first delta a reader elsewhere has it.
  return { first: first - t0, relay: relayed ? (await relayed) - first : NaN }
}

type Row = { name: string; rps: number[]; p50: number[]; p99: number[]; delta: number[]; relay: number[] }

interface Setup {
  row: Row
  origin: string
  cluster: Cluster
  others?: Map<string, string>
  who?: Awaited<ReturnType<typeof person>>
}

/** One run of one setup: throughput, then first-delta latency. */
async function measure(setup: Setup) {
  const { row, origin } = setup
  setup.who ??= await person(origin, setup.cluster)
  const r = load(`${origin}/api/v1/self`, setup.who.cookie)
  row.rps.push(r.rps)
  row.p50.push(r.p50)
  row.p99.push(r.p99)
  const firsts: number[] = []
  const relays: number[] = []
  for (let i = 0; i < SENDS; i++) {
    const m = await firstDelta(origin, setup.who, setup.others)
    firsts.push(m.first)
    if (!Number.isNaN(m.relay)) relays.push(m.relay)
  }
  row.delta.push(median(firsts))
  if (relays.length) row.relay.push(median(relays))
}

const row = (name: string): Row => ({ name, rps: [], p50: [], p99: [], delta: [], relay: [] })
const db = await freshDatabase(base, `bench_scale_${process.pid}`)
const clusters: Cluster[] = []
const rows: Row[] = []
try {
  // Both set-ups up at once on one database, measured in turns within each run, so a machine whose load drifts
  // (it is shared) weighs on all of them alike. tagUpstream: nginx names the instance that answered, so the relay
  // is read from the other one.
  const start = (basePort: number, instances: number) =>
    startCluster({ databaseUrl: db.url, basePort, instances, tagUpstream: true, env: { LLM_PROVIDER: 'offline', ASTRO_NODE_LOGGING: 'disabled' } })
  const one = await start(BASE_PORT, 1)
  clusters.push(one)
  const two = await start(BASE_PORT + 10, 2)
  clusters.push(two)
  const setups: Setup[] = [
    { row: row('1 instance, direct'), origin: one.instances[0].url, cluster: one },
    { row: row('1 instance behind nginx'), origin: one.proxy!, cluster: one },
    { row: row('2 instances behind nginx'), origin: two.proxy!, cluster: two, others: new Map(two.instances.map((i) => [i.address, i.url])) },
  ]
  rows.push(...setups.map((s) => s.row))
  for (const setup of setups) load(`${setup.origin}/api/v1/health`, '', true)
  for (let run = 0; run < RUNS; run++) for (const setup of setups) await measure(setup)
} finally {
  for (const c of clusters) await c.stop()
  await db.drop()
}

console.log(`\n${RUNS} runs; GET /api/v1/self: ${CONNECTIONS} connections, ${SECONDS} s a run; first delta: median of ${SENDS} sends a run; min / median / max over runs\n`)
console.log('| setup | req/s | p50 ms | p99 ms | first delta ms | relayed to the other instance, ms after |\n|---|---|---|---|---|---|')
for (const r of rows)
  console.log(`| ${r.name} | ${spread(r.rps)} | ${spread(r.p50)} | ${spread(r.p99)} | ${spread(r.delta, 1)} | ${r.relay.length ? spread(r.relay, 1) : '—'} |`)
const direct = rows[0]
const proxied = rows[1]
console.log(
  `\nnginx's own overhead (1 instance): ${((1 - median(proxied.rps) / median(direct.rps)) * 100).toFixed(1)} % of throughput, ` +
    `${(median(proxied.delta) - median(direct.delta)).toFixed(1)} ms on the first delta`,
)
