// Runs scenarios through the app's own reply path: each person is seeded with the app's services (seed.ts), and
// every scripted message goes through sendMessage — crisis rules, help block, memory recall, prompt assembly and the
// provider — exactly as a chat message from the browser does, minus HTTP. The provider is wrapped only to time it.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Sql } from '../api/db/database'
import { sendMessage, type ChatDeps } from '../api/chat/sendMessage'
import { estimateTokens } from '../api/chat/prompt'
import { diskStorage } from '../api/files/storage'
import type { CallOptions, ChatMessage, ModelProvider, TokenUsage } from '../api/llm/provider'
import { checkReply, type CheckResult } from './checks'
import { agreement, judgeReply, type Agreement, type Verdict } from './judge'
import { CATEGORIES, LANGUAGES, type Category, type Scenario } from './scenario'
import { removePerson, seedPerson } from './seed'

/** The person's clock in every scenario: a Saturday evening, so no reply depends on when the eval ran. */
export const EVAL_DATE_TIME = 'Saturday 2026-03-14 20:30:00'

export interface TurnTiming {
  /** From sending the message to the saved reply. */
  latencyMs: number
  /** From asking the model to its first words; null when no model was asked (a fixed crisis reply). */
  firstTokenMs: number | null
  /** Tokens the model wrote, as it reported them, else estimated from the text. */
  completionTokens: number | null
  tokensEstimated: boolean
  tokensPerSecond: number | null
}

export interface TurnResult {
  say: string
  /** The reply as the person sees it; '' when the app gave up on the turn. */
  reply: string
  help: string | null
  /** Why there was no reply, when there was none. */
  error?: string
  checks: CheckResult[]
  judge?: Verdict | { error: string }
  timing: TurnTiming
}

export interface ScenarioResult {
  id: string
  digest: string
  category: Category
  language: Scenario['language']
  title: string
  turns: TurnResult[]
  /** Share of this scenario's checks that passed, 0 to 1. */
  score: number
  passed: boolean
  /** Set when the scenario could not run at all (seeding failed). */
  error?: string
}

/** Times every model call the reply makes and collects what the backend reports about tokens. */
function timedProvider(provider: ModelProvider) {
  const calls: { started: number; first: number | null; ended: number; text: string; usage: TokenUsage | null }[] = []
  const withUsage = (opts: CallOptions = {}, call: (typeof calls)[number]): CallOptions => ({
    ...opts,
    onUsage: (usage) => {
      call.usage = usage
      opts.onUsage?.(usage)
    },
  })
  const timed: ModelProvider = {
    kind: provider.kind,
    model: provider.model,
    embed: provider.embed,
    async *streamChat(messages: ChatMessage[], opts?: CallOptions) {
      const call = { started: performance.now(), first: null as number | null, ended: 0, text: '', usage: null as TokenUsage | null }
      calls.push(call)
      try {
        for await (const delta of provider.streamChat(messages, withUsage(opts, call))) {
          call.first ??= performance.now()
          call.text += delta
          yield delta
        }
      } finally {
        call.ended = performance.now()
      }
    },
    complete: (prompt, opts) => provider.complete(prompt, opts),
    json: (prompt, schema, opts) => provider.json(prompt, schema, opts),
  }
  return { provider: timed, calls }
}

function timingOf(started: number, ended: number, calls: ReturnType<typeof timedProvider>['calls'], kind: ModelProvider['kind']): TurnTiming {
  const reply = calls.at(-1)
  // The offline provider composes its reply at once: there is no model whose speed could be measured.
  if (!reply || kind === 'offline') return { latencyMs: Math.round(ended - started), firstTokenMs: null, completionTokens: null, tokensEstimated: false, tokensPerSecond: null }
  const tokens = reply.usage?.completionTokens || estimateTokens(reply.text)
  const writing = reply.ended - (reply.first ?? reply.started)
  return {
    latencyMs: Math.round(ended - started),
    firstTokenMs: reply.first === null ? null : Math.round(reply.first - reply.started),
    completionTokens: tokens,
    tokensEstimated: !reply.usage?.completionTokens,
    tokensPerSecond: writing > 0 ? Math.round((tokens / writing) * 10000) / 10 : null,
  }
}

export interface RunDeps {
  sql: Sql
  provider: ModelProvider
  judge?: ModelProvider | null
  /** Makes the seeded accounts unique to this run. */
  tag: string
}

const storage = diskStorage(join(tmpdir(), 'idealself-eval-files'))

export async function runScenario(deps: RunDeps, scenario: Scenario): Promise<ScenarioResult> {
  const base = { id: scenario.id, digest: scenario.digest, category: scenario.category, language: scenario.language, title: scenario.title }
  let seeded
  try {
    seeded = await seedPerson(deps.sql, scenario, deps.tag)
  } catch (error) {
    return { ...base, turns: [], score: 0, passed: false, error: `seeding failed: ${(error as Error).message}` }
  }
  const turns: TurnResult[] = []
  try {
    for (const turn of scenario.turns) {
      const { provider, calls } = timedProvider(deps.provider)
      const chat: ChatDeps = { sql: deps.sql, storage, provider, limitPeriod: 'week' }
      const started = performance.now()
      let reply = { text: '', help: null as string | null }
      let error: string | undefined
      try {
        const sent = await sendMessage(chat, {
          userId: seeded.userId,
          conversationId: seeded.conversationId,
          characterId: seeded.characterId,
          text: turn.say,
          currentDateTime: EVAL_DATE_TIME,
          fileIds: [],
        })
        const outcome = await sent.outcome
        if (outcome.ok) reply = { text: outcome.text, help: outcome.help }
        else error = outcome.error.message
      } catch (e) {
        error = (e as Error).message
      }
      const timing = timingOf(started, performance.now(), calls, deps.provider.kind)
      const checks = error
        ? checkReply(reply, turn.expect, scenario.language).map((c) => ({ ...c, pass: false, detail: `no reply: ${error}` }))
        : checkReply(reply, turn.expect, scenario.language)
      turns.push({ say: turn.say, reply: reply.text, help: reply.help, ...(error ? { error } : {}), checks, timing })
    }
    if (deps.judge) {
      for (let i = 0; i < turns.length; i++) {
        if (turns[i].error) continue
        const exchanges = turns.slice(0, i + 1).map((t) => ({ say: t.say, reply: t.reply }))
        try {
          turns[i].judge = await judgeReply(deps.judge, scenario, exchanges)
        } catch (e) {
          turns[i].judge = { error: (e as Error).message }
        }
      }
    }
  } finally {
    await removePerson(deps.sql, seeded.userId, turns.filter((t) => !t.error && !t.help).length)
  }
  const checks = turns.flatMap((t) => t.checks)
  const passedChecks = checks.filter((c) => c.pass).length
  return { ...base, turns, score: checks.length ? passedChecks / checks.length : 0, passed: checks.length > 0 && passedChecks === checks.length }
}

/** Runs `scenarios` with at most `concurrency` at once, reporting each result as it is ready. */
export async function runScenarios(
  deps: RunDeps,
  scenarios: Scenario[],
  opts: { concurrency: number; onResult?: (result: ScenarioResult) => void | Promise<void> },
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = []
  let next = 0
  const worker = async () => {
    while (next < scenarios.length) {
      const scenario = scenarios[next++]
      const result = await runScenario(deps, scenario)
      results.push(result)
      await opts.onResult?.(result)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, scenarios.length)) }, worker))
  const order = new Map(scenarios.map((s, i) => [s.id, i]))
  return results.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
}

export interface Group {
  scenarios: number
  passed: number
  /** Mean of the scenarios' scores, 0 to 1. */
  score: number
}

export interface Summary {
  /** Mean of the category scores: each category weighs the same whatever its number of scenarios. */
  score: number
  scenarios: number
  scenariosPassed: number
  checks: number
  checksPassed: number
  categories: Partial<Record<Category, Group>>
  languages: Partial<Record<Scenario['language'], Group>>
  latency: { medianMs: number | null; p90Ms: number | null; medianFirstTokenMs: number | null }
  tokensPerSecond: { median: number | null; estimated: boolean }
  judge: { verdicts: number; errors: number; passRate: number | null; meanScore: number | null; agreement: Agreement } | null
}

function group(results: ScenarioResult[]): Group {
  return {
    scenarios: results.length,
    passed: results.filter((r) => r.passed).length,
    score: results.length ? results.reduce((a, r) => a + r.score, 0) / results.length : 0,
  }
}

function quantile(values: number[], q: number): number | null {
  if (!values.length) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

export function summarise(results: ScenarioResult[]): Summary {
  const categories: Summary['categories'] = {}
  for (const c of CATEGORIES) {
    const of = results.filter((r) => r.category === c)
    if (of.length) categories[c] = group(of)
  }
  const languages: Summary['languages'] = {}
  for (const l of LANGUAGES) {
    const of = results.filter((r) => r.language === l)
    if (of.length) languages[l] = group(of)
  }
  const turns = results.flatMap((r) => r.turns)
  const checks = turns.flatMap((t) => t.checks)
  const timed = turns.filter((t) => !t.error)
  const speeds = timed.map((t) => t.timing.tokensPerSecond).filter((v): v is number => v !== null)
  const verdicts = turns.filter((t) => t.judge && !('error' in t.judge)) as (TurnResult & { judge: Verdict })[]
  const judged = turns.some((t) => t.judge)
  const categoryScores = Object.values(categories).map((g) => g.score)
  return {
    score: categoryScores.length ? categoryScores.reduce((a, b) => a + b, 0) / categoryScores.length : 0,
    scenarios: results.length,
    scenariosPassed: results.filter((r) => r.passed).length,
    checks: checks.length,
    checksPassed: checks.filter((c) => c.pass).length,
    categories,
    languages,
    latency: {
      medianMs: quantile(timed.map((t) => t.timing.latencyMs), 0.5),
      p90Ms: quantile(timed.map((t) => t.timing.latencyMs), 0.9),
      medianFirstTokenMs: quantile(timed.map((t) => t.timing.firstTokenMs).filter((v): v is number => v !== null), 0.5),
    },
    tokensPerSecond: { median: quantile(speeds, 0.5), estimated: timed.some((t) => t.timing.tokensEstimated) },
    judge: judged
      ? {
          verdicts: verdicts.length,
          errors: turns.filter((t) => t.judge && 'error' in t.judge).length,
          passRate: verdicts.length ? verdicts.filter((t) => t.judge.pass).length / verdicts.length : null,
          meanScore: verdicts.length ? verdicts.reduce((a, t) => a + t.judge.score, 0) / verdicts.length : null,
          agreement: agreement(verdicts.filter((t) => t.checks.length).map((t) => ({ rules: t.checks.every((c) => c.pass), judge: t.judge.pass }))),
        }
      : null,
  }
}
