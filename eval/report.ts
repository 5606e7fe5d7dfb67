// A run as files: the JSON record (everything, for eval:compare and for resuming) and a Markdown report to read.
import { readFileSync } from 'node:fs'
import { summarise, type ScenarioResult, type Summary } from './run'
import { CATEGORIES, LANGUAGES } from './scenario'

export const RUN_FORMAT = 1

export interface ModelRef {
  kind: string
  model: string | null
  /** Where it was reached (Ollama host or OpenAI-compatible base URL); never a key. */
  endpoint?: string | null
}

export interface RunRecord {
  format: typeof RUN_FORMAT
  id: string
  startedAt: string
  /** null while the run is unfinished: `--resume` picks it up. */
  finishedAt: string | null
  provider: ModelRef
  judge: ModelRef | null
  concurrency: number
  /** The commit the app was at, when known: which prompts were scored. */
  commit: string | null
  results: ScenarioResult[]
  summary: Summary
}

export function readRun(file: string): RunRecord {
  const run = JSON.parse(readFileSync(file, 'utf8')) as RunRecord
  if (run?.format !== RUN_FORMAT || !Array.isArray(run.results)) throw new Error(`${file} is not an eval run file`)
  return run
}

export const withSummary = (run: Omit<RunRecord, 'summary'>): RunRecord => ({ ...run, summary: summarise(run.results) })

export const percent = (share: number | null | undefined) => (share === null || share === undefined ? '—' : `${Math.round(share * 1000) / 10}%`)
const ms = (v: number | null) => (v === null ? '—' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${v} ms`)
export const modelName = (ref: ModelRef) => (ref.model ? `${ref.kind} ${ref.model}` : ref.kind)
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n+\s*/g, ' ⏎ ')

function quoteBlock(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
}

export function markdownReport(run: RunRecord): string {
  const s = run.summary
  const out: string[] = []
  out.push(`# Companion eval: ${modelName(run.provider)}`)
  out.push('')
  out.push(
    [
      `Run \`${run.id}\`, ${run.startedAt}${run.finishedAt ? ` to ${run.finishedAt}` : ' (unfinished: resume with `--resume`)'}`,
      run.commit ? `app at commit \`${run.commit}\`` : null,
      run.judge ? `judged by ${modelName(run.judge)}` : 'no judge model',
      `concurrency ${run.concurrency}`,
    ]
      .filter(Boolean)
      .join(' · '),
  )
  out.push('')
  out.push(`**Score ${percent(s.score)}** (mean of the categories) · scenarios fully passed ${s.scenariosPassed}/${s.scenarios} · checks passed ${s.checksPassed}/${s.checks}`)
  out.push('')
  out.push('| category | scenarios | fully passed | score |')
  out.push('|---|---:|---:|---:|')
  for (const c of CATEGORIES) {
    const g = s.categories[c]
    if (g) out.push(`| ${c} | ${g.scenarios} | ${g.passed} | ${percent(g.score)} |`)
  }
  out.push('')
  out.push('| language | scenarios | fully passed | score |')
  out.push('|---|---:|---:|---:|')
  for (const l of LANGUAGES) {
    const g = s.languages[l]
    if (g) out.push(`| ${l} | ${g.scenarios} | ${g.passed} | ${percent(g.score)} |`)
  }
  out.push('')
  const speed = s.tokensPerSecond.median === null ? '—' : `${s.tokensPerSecond.median} tokens/s${s.tokensPerSecond.estimated ? ' (partly estimated from the text)' : ''}`
  out.push(`Reply latency: median ${ms(s.latency.medianMs)}, 90th percentile ${ms(s.latency.p90Ms)}; first words after ${ms(s.latency.medianFirstTokenMs)} (median); speed ${speed}.`)
  if (s.judge) {
    const a = s.judge.agreement
    out.push('')
    out.push(
      `Judge: ${s.judge.verdicts} verdicts${s.judge.errors ? ` (${s.judge.errors} failed)` : ''}, passed ${percent(s.judge.passRate)}, mean score ${s.judge.meanScore?.toFixed(2) ?? '—'} of 5. ` +
        `Agreement with the checks: ${a.agreed}/${a.compared} (${percent(a.compared ? a.agreed / a.compared : null)}), kappa ${a.kappa === null ? '—' : a.kappa.toFixed(2)}; ` +
        `the judge passed ${a.judgeOnlyPass} replies a check failed and failed ${a.rulesOnlyPass} the checks passed.`,
    )
  }
  out.push('')
  out.push('## Scenarios')
  out.push('')
  out.push('| scenario | category | language | score | failed checks |')
  out.push('|---|---|---|---:|---|')
  for (const r of run.results) {
    const failed = r.error ? [r.error] : r.turns.flatMap((t, i) => t.checks.filter((c) => !c.pass).map((c) => `${i + 1}: ${c.check}`))
    out.push(`| ${r.id} | ${r.category} | ${r.language} | ${percent(r.score)} | ${cell(failed.join('; ') || '—')} |`)
  }
  out.push('')
  out.push('## Replies')
  for (const r of run.results) {
    out.push('')
    out.push(`### ${r.id}: ${r.title}`)
    if (r.error) out.push('', `Not run: ${r.error}`)
    r.turns.forEach((t, i) => {
      out.push('', `**${i + 1}. They say:** ${t.say}`, '')
      out.push(t.error ? `*No reply: ${t.error}*` : quoteBlock(t.reply))
      out.push('')
      for (const c of t.checks) out.push(`- ${c.pass ? '✅' : '❌'} ${c.check} — ${c.detail}`)
      if (t.judge) out.push('error' in t.judge ? `- ⚠️ judge failed: ${t.judge.error}` : `- ⚖️ judge ${t.judge.pass ? 'pass' : 'fail'}, ${t.judge.score}/5: ${t.judge.reason}`)
      out.push(`- ⏱ ${ms(t.timing.latencyMs)}${t.timing.tokensPerSecond === null ? '' : `, ${t.timing.tokensPerSecond} tokens/s`}`)
    })
  }
  return out.join('\n') + '\n'
}
