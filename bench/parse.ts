/**
 * Chat-export parsing benchmark: our parsers vs the npm packages whatsapp-chat-parser and
 * line-chat-parser on the same generated ~50 MB files.
 *
 *   npx bun bench/parse.ts              # generate bench/out/*.txt if missing, run, print a table
 *   npx bun bench/parse.ts --mb 10      # smaller files
 *   npx bun bench/parse.ts --only line  # only the files whose name contains "line"
 *   npx bun bench/parse.ts --rounds 9   # more worker processes per parser (default 5)
 *
 * Every (parser, file) pair runs in a fresh subprocess so peak memory is its own: the worker
 * loads the file, resets the kernel's peak-RSS counter and parses once for memory (peak RSS
 * over the parse, heap growth with the result held), parses once more to finish JIT
 * warm-up, then times REPETITIONS parses with a full GC before each. The stream row reads the
 * file in chunks and never holds it as one string. The parsers of a file take turns, one
 * worker each per round, so a busy spell on a shared machine falls on all of them alike;
 * best and median are over the timed parses of all rounds. "Paired" compares each round's
 * median with the peer's median in the same round and gives the median of those ratios: on a
 * machine whose speed drifts over minutes, the pooled best of one parser can come from a fast
 * spell the other never had.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { heapStats } from 'bun:jsc'
import { parseString as parseWhatsAppPeer } from 'whatsapp-chat-parser'
import LineChatParser from 'line-chat-parser'
import { parseChatExport, parseChatExportStream } from '../api/chat-import/parseChatExport'
import { renderLine, renderWhatsApp } from '../api/chat-import/renderChatExport'
import type { ChatMessage } from '../api/chat-import/types'
import { generateExport } from './exports'

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'out')
const WARM_UPS = 2
const REPETITIONS = 5
const ROUNDS = 5

interface Case {
  file: string
  render: (messages: ChatMessage[]) => string
  parsers: string[]
}

const CASES: Case[] = [
  { file: 'whatsapp-android.txt', render: (m) => renderWhatsApp(m, 'android-dmy-24h'), parsers: ['ours', 'ours-stream', 'whatsapp-chat-parser'] },
  { file: 'whatsapp-ios.txt', render: (m) => renderWhatsApp(m, 'ios-mdy-12h', { crlf: true, groupName: 'Trail Crew' }), parsers: ['ours', 'ours-stream', 'whatsapp-chat-parser'] },
  { file: 'line-mobile.txt', render: (m) => renderLine(m, 'mobile-en', { crlf: true, groupName: 'Hikers' }), parsers: ['ours', 'ours-stream', 'line-chat-parser'] },
]

/** Parses one file with the named parser and returns its records. */
async function parseOnce(name: string, path: string, text: string): Promise<unknown[]> {
  switch (name) {
    case 'ours': {
      const result = parseChatExport(text)
      return result.ok ? result.messages : []
    }
    case 'ours-stream': {
      const result = await parseChatExportStream(Bun.file(path).stream())
      return result.ok ? result.messages : []
    }
    case 'whatsapp-chat-parser':
      return parseWhatsAppPeer(text)
    case 'line-chat-parser':
      return LineChatParser.parse(text)
  }
  throw new Error(`unknown parser ${name}`)
}

interface WorkerResult {
  records: number
  times: number[]
  peakRssDelta: number
  heapDelta: number
}

/** A parser's results over all rounds. */
interface PooledResult extends WorkerResult {
  /** The median time of each round, in round order. */
  roundMedians: number[]
}

function statusBytes(field: string): number {
  const match = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))
  return match ? Number(match[1]) * 1024 : 0
}

/**
 * The heap without "extra memory" (the input string's 91 MB of UTF-16 count there): whether a
 * collection counts that string again depends on its timing, which made the figure swing by
 * the string's size between runs of the same code.
 */
function objectHeapBytes(): number {
  const { heapSize, extraMemorySize } = heapStats()
  return heapSize - extraMemorySize
}

async function worker(name: string, path: string): Promise<void> {
  // The stream parser reads the file itself; the others get it as one string, loaded untimed.
  const text = name === 'ours-stream' ? '' : readFileSync(path, 'utf8')
  Bun.gc(true)
  writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM (peak RSS) to the current RSS
  const rssBefore = statusBytes('VmRSS')
  const heapBefore = objectHeapBytes()
  let records = await parseOnce(name, path, text)
  const peakRssDelta = statusBytes('VmHWM') - rssBefore
  // Heap growth with the result still held (after a full GC): roughly the result's size.
  Bun.gc(true)
  const heapDelta = objectHeapBytes() - heapBefore
  const count = records.length
  records = []
  const times: number[] = []
  for (let i = 1; i < WARM_UPS + REPETITIONS; i++) {
    Bun.gc(true)
    const started = performance.now()
    await parseOnce(name, path, text)
    if (i >= WARM_UPS) times.push(performance.now() - started)
  }
  const result: WorkerResult = { records: count, times, peakRssDelta, heapDelta }
  process.stdout.write(JSON.stringify(result))
}

/** Every parser's worker `rounds` times, taking turns; times pooled, memory figures the median round's. */
function runRounds(parsers: string[], path: string, rounds: number): Map<string, PooledResult> {
  const runs = new Map<string, WorkerResult[]>(parsers.map((parser) => [parser, []]))
  for (let round = 0; round < rounds; round++) {
    for (const parser of parsers) {
      const child = Bun.spawnSync([process.execPath, import.meta.path, '--worker', parser, path], { stderr: 'inherit' })
      if (child.exitCode !== 0) throw new Error(`${parser} on ${path} failed`)
      runs.get(parser)!.push(JSON.parse(child.stdout.toString()) as WorkerResult)
    }
  }
  const pooled = new Map<string, PooledResult>()
  for (const [parser, results] of runs) {
    pooled.set(parser, {
      records: results[0].records,
      times: results.flatMap((r) => r.times),
      roundMedians: results.map((r) => median(r.times)),
      peakRssDelta: median(results.map((r) => r.peakRssDelta)),
      heapDelta: median(results.map((r) => r.heapDelta)),
    })
  }
  return pooled
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1)

async function main(): Promise<void> {
  const sizeArg = process.argv.indexOf('--mb')
  const targetMb = sizeArg > 0 ? Number(process.argv[sizeArg + 1]) : 50
  const target = targetMb * 1e6
  const onlyArg = process.argv.indexOf('--only')
  const only = onlyArg > 0 ? process.argv[onlyArg + 1] : ''
  const roundsArg = process.argv.indexOf('--rounds')
  const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : ROUNDS
  mkdirSync(OUT, { recursive: true })
  const rows: string[] = []
  const loadBefore = loadAverage()
  for (const [index, testCase] of CASES.entries()) {
    if (!testCase.file.includes(only)) continue
    const path = join(OUT, testCase.file)
    if (!existsSync(path) || Math.abs(statSync(path).size - target) > target * 0.1) {
      generateExport(target, path, testCase.render, index + 1)
    }
    const size = statSync(path).size
    const results = runRounds(testCase.parsers, path, rounds)
    const peer = results.get(testCase.parsers[testCase.parsers.length - 1])!
    const [peerBest, peerMedian] = [Math.min(...peer.times), median(peer.times)]
    for (const [parser, r] of results) {
      const [best, mid] = [Math.min(...r.times), median(r.times)]
      const paired = median(r.roundMedians.map((m, round) => peer.roundMedians[round] / m))
      rows.push(
        `| ${testCase.file} | ${mb(size)} | ${parser} | ${r.records} | ${best.toFixed(0)} | ${mid.toFixed(0)} | ` +
          `${(size / 1e6 / (best / 1000)).toFixed(0)} / ${(size / 1e6 / (mid / 1000)).toFixed(0)} | ` +
          `${(peerBest / best).toFixed(1)}× / ${(peerMedian / mid).toFixed(1)}× / ${paired.toFixed(1)}× | ` +
          `${mb(r.peakRssDelta)} | ${mb(r.heapDelta)} |`,
      )
    }
  }
  console.log(
    `Chat-export parsing, ${new Date().toISOString().slice(0, 10)}, Bun ${Bun.version}, ` +
      `${navigator.hardwareConcurrency} cores, load average ${loadBefore} before and ${loadAverage()} after, ` +
      `${rounds} × ${REPETITIONS} timed runs each\n`,
  )
  console.log('| file | MB | parser | records | best ms | median ms | MB/s best / median | vs peer best / median / paired | peak RSS Δ MB | heap Δ MB, result held |')
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
}

if (process.argv[2] === '--worker') await worker(process.argv[3], process.argv[4])
else await main()
