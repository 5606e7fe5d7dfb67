// What changed between two runs (a model against another, or a prompt change on one model): the scores overall, by
// category and language, speed, and every scenario whose score moved, with the checks that flipped.
import { CATEGORIES, LANGUAGES } from './scenario'
import { modelName, percent, type RunRecord } from './report'
import type { ScenarioResult } from './run'

export interface CheckFlip {
  scenario: string
  turn: number
  check: string
  /** true: failed in A, passes in B. */
  fixed: boolean
}

export interface Comparison {
  overall: { a: number; b: number }
  categories: { name: string; a: number | null; b: number | null }[]
  languages: { name: string; a: number | null; b: number | null }[]
  scenarios: { id: string; a: number | null; b: number | null }[]
  flips: CheckFlip[]
  /** Scenarios in only one of the runs. */
  onlyA: string[]
  onlyB: string[]
  /** Scenarios whose file changed between the runs: their checks may differ. */
  changedFiles: string[]
  latency: { a: number | null; b: number | null }
  tokensPerSecond: { a: number | null; b: number | null }
}

const checksByKey = (r: ScenarioResult) => new Map(r.turns.flatMap((t, i) => t.checks.map((c) => [`${i + 1}\u0000${c.check}`, c.pass] as const)))

export function compareRuns(a: RunRecord, b: RunRecord): Comparison {
  const byIdA = new Map(a.results.map((r) => [r.id, r]))
  const byIdB = new Map(b.results.map((r) => [r.id, r]))
  const ids = [...new Set([...byIdA.keys(), ...byIdB.keys()])].sort()
  const flips: CheckFlip[] = []
  for (const id of ids) {
    const ra = byIdA.get(id)
    const rb = byIdB.get(id)
    if (!ra || !rb) continue
    const checksA = checksByKey(ra)
    for (const [key, passB] of checksByKey(rb)) {
      const passA = checksA.get(key)
      if (passA === undefined || passA === passB) continue
      const [turn, check] = key.split('\u0000')
      flips.push({ scenario: id, turn: Number(turn), check, fixed: passB })
    }
  }
  return {
    overall: { a: a.summary.score, b: b.summary.score },
    categories: CATEGORIES.map((c) => ({ name: c, a: a.summary.categories[c]?.score ?? null, b: b.summary.categories[c]?.score ?? null })).filter((r) => r.a !== null || r.b !== null),
    languages: LANGUAGES.map((l) => ({ name: l, a: a.summary.languages[l]?.score ?? null, b: b.summary.languages[l]?.score ?? null })).filter((r) => r.a !== null || r.b !== null),
    scenarios: ids
      .map((id) => ({ id, a: byIdA.get(id)?.score ?? null, b: byIdB.get(id)?.score ?? null }))
      .filter((s) => s.a === null || s.b === null || Math.abs(s.a - s.b) > 1e-9),
    flips,
    onlyA: ids.filter((id) => !byIdB.has(id)),
    onlyB: ids.filter((id) => !byIdA.has(id)),
    changedFiles: ids.filter((id) => byIdA.has(id) && byIdB.has(id) && byIdA.get(id)!.digest !== byIdB.get(id)!.digest),
    latency: { a: a.summary.latency.medianMs, b: b.summary.latency.medianMs },
    tokensPerSecond: { a: a.summary.tokensPerSecond.median, b: b.summary.tokensPerSecond.median },
  }
}

function delta(a: number | null, b: number | null): string {
  if (a === null || b === null) return '—'
  const points = Math.round((b - a) * 1000) / 10
  return points === 0 ? '±0' : `${points > 0 ? '+' : ''}${points} pt`
}

const plain = (v: number | null, unit: string) => (v === null ? '—' : `${v} ${unit}`)

export function markdownComparison(a: RunRecord, b: RunRecord): string {
  const c = compareRuns(a, b)
  const out: string[] = []
  out.push(`# Eval comparison`, '')
  out.push(`- A: ${modelName(a.provider)}, run \`${a.id}\`${a.commit ? ` at \`${a.commit}\`` : ''}`)
  out.push(`- B: ${modelName(b.provider)}, run \`${b.id}\`${b.commit ? ` at \`${b.commit}\`` : ''}`, '')
  out.push('| | A | B | change |', '|---|---:|---:|---:|')
  out.push(`| **overall** | ${percent(c.overall.a)} | ${percent(c.overall.b)} | ${delta(c.overall.a, c.overall.b)} |`)
  for (const r of c.categories) out.push(`| ${r.name} | ${percent(r.a)} | ${percent(r.b)} | ${delta(r.a, r.b)} |`)
  for (const r of c.languages) out.push(`| ${r.name} | ${percent(r.a)} | ${percent(r.b)} | ${delta(r.a, r.b)} |`)
  out.push(`| median latency | ${plain(c.latency.a, 'ms')} | ${plain(c.latency.b, 'ms')} | |`)
  out.push(`| median speed | ${plain(c.tokensPerSecond.a, 'tokens/s')} | ${plain(c.tokensPerSecond.b, 'tokens/s')} | |`, '')
  if (c.scenarios.length) {
    out.push('## Scenarios that changed', '', '| scenario | A | B | change |', '|---|---:|---:|---:|')
    for (const s of c.scenarios) out.push(`| ${s.id} | ${percent(s.a)} | ${percent(s.b)} | ${delta(s.a, s.b)} |`)
    out.push('')
  } else out.push('No scenario changed its score.', '')
  const fixed = c.flips.filter((f) => f.fixed)
  const broken = c.flips.filter((f) => !f.fixed)
  if (broken.length) out.push('## Checks that now fail', '', ...broken.map((f) => `- ${f.scenario}, turn ${f.turn}: ${f.check}`), '')
  if (fixed.length) out.push('## Checks that now pass', '', ...fixed.map((f) => `- ${f.scenario}, turn ${f.turn}: ${f.check}`), '')
  if (c.onlyA.length) out.push(`Only in A: ${c.onlyA.join(', ')}`, '')
  if (c.onlyB.length) out.push(`Only in B: ${c.onlyB.join(', ')}`, '')
  if (c.changedFiles.length) out.push(`Scenario files changed between the runs: ${c.changedFiles.join(', ')}`, '')
  return out.join('\n')
}
