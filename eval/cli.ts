// `npm run eval` and `npm run eval:compare`: options, the model from the app's own configuration (api/config.ts,
// api/llm/selectProvider.ts) with the command line's choices on top, the database, and the run files.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadConfig } from '../api/config'
import { openEmbedded, openPostgres, type Database } from '../api/db/database'
import { migrate } from '../api/db/migrate'
import { seedContent } from '../api/content/seed'
import { selectProvider } from '../api/llm/selectProvider'
import type { ModelProvider } from '../api/llm/provider'
import { loadScenarios, type Scenario } from './scenario'
import { runScenarios, type ScenarioResult } from './run'
import { markdownReport, modelName, percent, readRun, RUN_FORMAT, withSummary, type ModelRef, type RunRecord } from './report'
import { markdownComparison } from './compare'
import { progressBar } from './progress'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const SCENARIO_DIR = join(root, 'eval', 'scenarios')

export const USAGE = `Scores a model on the companion's scripted conversations (eval/scenarios) through the app's own reply path.

  npm run eval -- [options]

Model (default: the app's configuration, LLM_PROVIDER and friends):
  --provider ollama|openai|offline|auto
  --model NAME            the Ollama model, or the OpenAI-compatible endpoint's
  --host URL              Ollama's address (OLLAMA_HOST)
  --base-url URL          the OpenAI-compatible endpoint (OPENAI_BASE_URL)
  --api-key KEY           better given as OLLAMA_API_KEY / OPENAI_API_KEY in the environment

Judge model (optional; scores what rules cannot see and reports its agreement with the checks):
  --judge-provider, --judge-model, --judge-host, --judge-base-url, --judge-api-key

Which scenarios:
  --scenarios DIR         default eval/scenarios
  --only TEXT             scenarios whose id contains TEXT (repeatable)
  --category NAME         grounding, language, style, persona, safety, boundaries or pace (repeatable)
  --language CODE         en-US, zh-TW or zh-CN (repeatable)

Running:
  --concurrency N         scenarios at once (default 2)
  --out DIR               where the run's .json and .md go (default eval/runs)
  --resume FILE           continue an unfinished run (or re-run scenarios whose files changed)
  --database-url URL      a PostgreSQL database to seed the scenarios into (default: a throwaway embedded one)

Compare two runs:  npm run eval:compare -- A.json B.json`

interface ModelFlags {
  provider?: string
  model?: string
  host?: string
  baseUrl?: string
  apiKey?: string
}

/** The app's configuration with the command line's choices on top; `selectProvider` then picks as the app does. */
async function modelFrom(flags: ModelFlags, env: Record<string, string | undefined>): Promise<{ provider: ModelProvider; ref: ModelRef }> {
  const overrides: Record<string, string | undefined> = {}
  if (flags.provider) overrides.LLM_PROVIDER = flags.provider
  if (flags.host) overrides.OLLAMA_HOST = flags.host
  if (flags.baseUrl) overrides.OPENAI_BASE_URL = flags.baseUrl
  // A model or key given with an OpenAI-compatible endpoint is that endpoint's; otherwise Ollama's.
  const openai = flags.provider === 'openai' || Boolean(flags.baseUrl)
  if (flags.model) overrides[openai ? 'OPENAI_MODEL' : 'OLLAMA_MODEL'] = flags.model
  if (flags.apiKey) overrides[openai ? 'OPENAI_API_KEY' : 'OLLAMA_API_KEY'] = flags.apiKey
  // Only the model settings are used; the secret keeps loadConfig from writing one into ./data.
  const cfg = loadConfig({ ...env, ...overrides, NODE_ENV: 'development', SESSION_SECRET: 'eval-only-'.padEnd(40, 'x') })
  const provider = await selectProvider(cfg.llm, { notice: (m) => console.warn(m) })
  const endpoint = provider.kind === 'ollama' ? cfg.llm.ollama.host : provider.kind === 'openai' ? (cfg.llm.openai.baseUrl ?? 'https://api.openai.com') : null
  return { provider, ref: { kind: provider.kind, model: provider.model, endpoint } }
}

function commit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || null
  } catch {
    return null
  }
}

async function openEvalDatabase(databaseUrl: string | undefined): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (databaseUrl) {
    const db = await openPostgres(databaseUrl, 4)
    return { db, cleanup: () => db.close() }
  }
  const dir = mkdtempSync(join(tmpdir(), 'idealself-eval-'))
  const db = await openEmbedded(dir)
  return {
    db,
    cleanup: async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Written whole to a temporary name, then renamed: an interrupted run never leaves half a file. */
function writeAtomic(file: string, text: string) {
  writeFileSync(`${file}.tmp`, text)
  renameSync(`${file}.tmp`, file)
}

const sameModel = (a: ModelRef, b: ModelRef) => a.kind === b.kind && a.model === b.model

export interface EvalOutcome {
  run: RunRecord
  jsonFile: string
  markdownFile: string
}

function selectScenarios(all: Scenario[], only: string[], categories: string[], languages: string[]): Scenario[] {
  return all.filter(
    (s) =>
      (!only.length || only.some((o) => s.id.includes(o))) &&
      (!categories.length || categories.includes(s.category)) &&
      (!languages.length || languages.includes(s.language)),
  )
}

export async function runEval(argv: string[], env: Record<string, string | undefined> = process.env, log = (s: string) => console.log(s)): Promise<EvalOutcome> {
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' },
      model: { type: 'string' },
      host: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'judge-provider': { type: 'string' },
      'judge-model': { type: 'string' },
      'judge-host': { type: 'string' },
      'judge-base-url': { type: 'string' },
      'judge-api-key': { type: 'string' },
      scenarios: { type: 'string' },
      only: { type: 'string', multiple: true },
      category: { type: 'string', multiple: true },
      language: { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'string' },
      'database-url': { type: 'string' },
      quiet: { type: 'boolean' },
    },
    strict: true,
  })
  const concurrency = Number(values.concurrency ?? 2)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new Error('--concurrency must be a whole number from 1 to 32')
  if (values.provider && !['ollama', 'openai', 'offline', 'auto'].includes(values.provider)) throw new Error('--provider must be ollama, openai, offline or auto')

  const scenarios = selectScenarios(loadScenarios(resolve(values.scenarios ?? SCENARIO_DIR)), values.only ?? [], values.category ?? [], values.language ?? [])
  if (!scenarios.length) throw new Error('No scenario matches the selection')

  const { provider, ref } = await modelFrom(
    { provider: values.provider, model: values.model, host: values.host, baseUrl: values['base-url'], apiKey: values['api-key'] },
    env,
  )
  const judgeWanted = values['judge-provider'] || values['judge-model']
  const judge = judgeWanted
    ? await modelFrom(
        { provider: values['judge-provider'], model: values['judge-model'], host: values['judge-host'], baseUrl: values['judge-base-url'], apiKey: values['judge-api-key'] },
        env,
      )
    : null
  if (judge?.provider.kind === 'offline') throw new Error('The offline provider cannot judge: choose a model with --judge-provider and --judge-model')

  const previous = values.resume ? readRun(values.resume) : null
  if (previous && !sameModel(previous.provider, ref)) {
    throw new Error(`${values.resume} was run with ${modelName(previous.provider)}, not ${modelName(ref)}: give the same --provider and --model`)
  }
  // A scenario whose file changed since is run again; one no longer selected is dropped from the record.
  const digests = new Map(scenarios.map((s) => [s.id, s.digest]))
  const kept: ScenarioResult[] = (previous?.results ?? []).filter((r) => digests.get(r.id) === r.digest && (!judge || r.turns.every((t) => t.error || t.judge)))
  const keptIds = new Set(kept.map((r) => r.id))
  const todo = scenarios.filter((s) => !keptIds.has(s.id))

  const startedAt = new Date().toISOString()
  const outDir = resolve(values.resume ? dirname(values.resume) : (values.out ?? join(root, 'eval', 'runs')))
  mkdirSync(outDir, { recursive: true })
  const stamp = `${startedAt.replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}-${ref.kind}${ref.model ? `-${ref.model.replace(/[^a-zA-Z0-9.]+/g, '_')}` : ''}`
  // Two runs started within the same second (a quick offline run, a script) each keep their own files.
  let id = previous?.id ?? stamp
  for (let n = 2; !previous && existsSync(join(outDir, `${id}.json`)); n++) id = `${stamp}-${n}`
  const jsonFile = values.resume ? resolve(values.resume) : join(outDir, `${id}.json`)
  const markdownFile = jsonFile.replace(/\.json$/, '') + '.md'

  const results = [...kept]
  const record = (finishedAt: string | null): RunRecord => {
    const order = new Map(scenarios.map((s, i) => [s.id, i]))
    return withSummary({
      format: RUN_FORMAT,
      id,
      startedAt: previous?.startedAt ?? startedAt,
      finishedAt,
      provider: ref,
      judge: judge?.ref ?? previous?.judge ?? null,
      concurrency,
      commit: commit(),
      results: [...results].sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    })
  }

  if (!values.quiet) {
    log(`Scoring ${modelName(ref)} on ${scenarios.length} scenarios${kept.length ? ` (${kept.length} kept from ${values.resume})` : ''}${judge ? `, judged by ${modelName(judge.ref)}` : ''}.`)
  }
  const { db, cleanup } = await openEvalDatabase(values['database-url'])
  const progress = values.quiet ? null : progressBar(scenarios.length, process.stderr, kept.length)
  try {
    await migrate(db.sql)
    // The help lines a crisis reply shows are content rows; the defaults are what an install starts with.
    await seedContent(db.sql, { freeMessageLimit: 100, freeLimitPeriod: 'week' })
    const tag = `${id}-${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9-]/g, '-')
    await runScenarios({ sql: db.sql, provider, judge: judge?.provider ?? null, tag }, todo, {
      concurrency,
      onResult: (result) => {
        results.push(result)
        writeAtomic(jsonFile, JSON.stringify(record(null), null, 2))
        progress?.tick(`${result.id} ${percent(result.score)}`)
      },
    })
  } finally {
    progress?.done()
    await cleanup()
  }
  const run = record(new Date().toISOString())
  writeAtomic(jsonFile, JSON.stringify(run, null, 2))
  writeAtomic(markdownFile, markdownReport(run))
  if (!values.quiet) {
    const s = run.summary
    log(`Score ${percent(s.score)} · scenarios fully passed ${s.scenariosPassed}/${s.scenarios} · checks ${s.checksPassed}/${s.checks}`)
    for (const [name, g] of Object.entries(s.categories)) log(`  ${name.padEnd(11)} ${percent(g.score).padStart(6)}  (${g.passed}/${g.scenarios} fully passed)`)
    log(`Report: ${markdownFile}\nRun file: ${jsonFile}`)
  }
  return { run, jsonFile, markdownFile }
}

export function compareMain(argv: string[]): string {
  const files = argv.filter((a) => a !== '--')
  if (files.length !== 2) throw new Error('Usage: npm run eval:compare -- A.json B.json')
  return markdownComparison(readRun(files[0]), readRun(files[1]))
}
