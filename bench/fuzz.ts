// The long run of the API fuzzer (tests/helpers/apiFuzz.ts): every mutation for every route and role, over
// several seeds, on a fresh app each. Prints per-seed figures and the findings, if any, for bench/README.md.
//   npx bun bench/fuzz.ts [--seeds 101,202,303] [--rounds 5] [--slow-ms 2000]
import { startTestApp } from '../tests/helpers/testApp'
import { SESSION_ENDING, fuzzActors, fuzzApi } from '../tests/helpers/apiFuzz'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const seeds = arg('seeds', '101,202,303').split(',').map(Number)
const slowMs = Number(arg('slow-ms', '2000'))
// Each round sends every mutation again with fresh random picks (path ids, nasty strings, query junk).
const rounds = Number(arg('rounds', '5'))

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`)
console.log('| seed | requests | 2xx/3xx | 4xx | 5xx | slow (> ' + slowMs + ' ms) | changed by a refusal | p50 ms | p99 ms | max ms | run s |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
let findings = 0
for (const seed of seeds) {
  const app = await startTestApp()
  try {
    const actors = await fuzzActors(app)
    const started = performance.now()
    const r = { requests: 0, statuses: {} as Record<string, number>, findings: [] as Awaited<ReturnType<typeof fuzzApi>>['findings'], durations: [] as number[] }
    for (let round = 0; round < rounds; round++) {
      const one = await fuzzApi(app, actors, { seed: seed * 1000 + round, casesPerRoute: Number.POSITIVE_INFINITY, slowMs, anonymousOnly: SESSION_ENDING })
      r.requests += one.requests
      for (const [s, n] of Object.entries(one.statuses)) r.statuses[s] = (r.statuses[s] ?? 0) + n
      r.findings.push(...one.findings)
      r.durations.push(...one.durations)
    }
    const runS = (performance.now() - started) / 1000
    const by = (test: (s: number) => boolean) => Object.entries(r.statuses).filter(([s]) => test(Number(s))).reduce((a, [, n]) => a + n, 0)
    const d = [...r.durations].sort((a, b) => a - b)
    const count = (kind: string) => r.findings.filter((f) => f.kind === kind).length
    console.log(
      `| ${seed} | ${r.requests} | ${by((s) => s < 400)} | ${by((s) => s >= 400 && s < 500)} | ${by((s) => s >= 500)} | ${count('slow')} | ${count('changed')} | ` +
        `${quantile(d, 0.5).toFixed(1)} | ${quantile(d, 0.99).toFixed(1)} | ${d.at(-1)!.toFixed(0)} | ${runS.toFixed(1)} |`,
    )
    for (const f of r.findings) console.log(`  finding: ${f.kind} ${f.status ?? ''} ${f.request} — ${f.detail}`)
    findings += r.findings.length
  } finally {
    await app.close()
  }
}
process.exit(findings ? 1 : 0)
