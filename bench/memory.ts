/**
 * Memory benchmarks (DESIGN §9: memory recall for one person with 10,000 memories ≤ 20 ms median added to a reply,
 * on PostgreSQL), and extraction throughput.
 *
 *   DATABASE_URL=postgres://… npx bun bench/memory.ts      # PostgreSQL (the budget's database)
 *   npx bun bench/memory.ts                                # embedded PGlite
 *   npx bun bench/memory.ts --memories 10000 --rounds 5
 *
 * Recall: one person with N memories (English and Chinese, generated from templates with varied people, places,
 * months and topics; 20 % about a person of their graph), and M other people with 200 each sharing the table. A
 * round asks recallForReply (what sendMessage awaits before the prompt) for 60 messages — words that match many
 * memories, few, none, Chinese, a named person — and takes the median; the figures are min / median / max of the
 * rounds' medians. Extraction: the no-model job's work per exchange (rules + writing, duplicate check included) in
 * exchanges per second, and the rule extractor alone in messages per second.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../api/config'
import { openDatabase } from '../api/db/database'
import { migrate } from '../api/db/migrate'
import { recallForReply } from '../api/memory/chatHooks'
import { searchText } from '../api/memory/searchText'
import { extractByRules } from '../api/memory/ruleExtractor'
import { applyChanges } from '../api/memory/remember'
import { CASES } from '../tests/unit/memory/ruleExtractorCases'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const N = arg('memories', 10_000)
const ROUNDS = arg('rounds', 5)
const OTHERS = arg('others', 20)

const dataDir = mkdtempSync(join(tmpdir(), 'idealself-bench-memory-'))
const cfg = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir, LLM_PROVIDER: 'offline' })
const db = await openDatabase(cfg)
const sql = db.sql
await migrate(sql)

// Deterministic variety: a small linear congruential generator.
let seed = 42
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n)
const pick = <T>(list: T[]) => list[rand(list.length)]

const PEOPLE = ['Mei', 'Jun', 'Alex', 'Karen', 'Tom', 'Sara', 'Leo', 'Nina', '小美', '阿傑', '志明', '春嬌']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const TOPICS = ['marathon', 'piano lessons', 'job interview', 'pottery class', 'thesis', 'trip to Japan', 'new apartment', 'driving test', 'guitar', 'Spanish course', 'yoga retreat', 'photography', 'startup pitch', 'wedding', 'half marathon', 'coding bootcamp']
const ZH_TOPICS = ['馬拉松', '鋼琴課', '面試', '陶藝課', '論文', '日本旅行', '新公寓', '駕照考試', '吉他', '西班牙文', '瑜伽', '攝影', '創業簡報', '婚禮', '半馬', '程式課']
const EN = [
  () => `Training for the ${pick(TOPICS)} in ${pick(MONTHS)}`,
  () => `${pick(PEOPLE)} starts the ${pick(TOPICS)} in ${pick(MONTHS)}`,
  () => `Prefers ${pick(['short', 'detailed', 'gentle', 'direct'])} answers about the ${pick(TOPICS)}`,
  () => `Worried about the ${pick(TOPICS)} with ${pick(PEOPLE)}`,
  () => `Finished the ${pick(TOPICS)} last ${pick(MONTHS)}`,
]
const ZH = [
  () => `${rand(12) + 1}月要準備${pick(ZH_TOPICS)}`,
  () => `${pick(PEOPLE)}下個月開始${pick(ZH_TOPICS)}`,
  () => `很喜歡${pick(ZH_TOPICS)}，但不喜歡${pick(ZH_TOPICS)}`,
  () => `上個月完成了${pick(ZH_TOPICS)}`,
]
const KINDS = ['fact', 'plan', 'preference', 'event', 'person'] as const

async function makeUser(tag: string) {
  const [user] = await sql<{ id: string }[]>`
    insert into users (email, name, role) values (${`bench-${tag}-${Date.now()}-${rand(1e9)}@example.com`}, 'Bench', 'REGULAR') returning id`
  const [character] = await sql<{ id: string }[]>`insert into characters (user_id, name, is_ready) values (${user.id}, 'Ideal Self', true) returning id`
  const [self] = await sql<{ id: string }[]>`insert into relation_nodes (character_id, user_id, name, is_self) values (${character.id}, ${user.id}, 'Me', true) returning id`
  for (const [i, name] of PEOPLE.slice(0, 6).entries()) {
    const [node] = await sql<{ id: string }[]>`insert into relation_nodes (character_id, user_id, name, position) values (${character.id}, ${user.id}, ${name}, ${i}) returning id`
    await sql`insert into relation_edges (character_id, source_id, target_id, types, closeness, confirmed) values (${character.id}, ${self.id}, ${node.id}, ${['friend']}, 3, true)`
  }
  return { userId: user.id, characterId: character.id }
}

async function fill(userId: string, count: number) {
  for (let start = 0; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => {
      const text = (rand(3) === 0 ? pick(ZH) : pick(EN))()
      const person = rand(5) === 0 ? pick(PEOPLE) : null
      return {
        user_id: userId,
        kind: pick([...KINDS]),
        text,
        label: text.slice(0, 20),
        person_name: person,
        search_text: searchText([text, person].filter(Boolean).join(' ')),
        updated_at: new Date(Date.now() - rand(365 * 86_400_000) - i),
      }
    })
    await sql`insert into memories ${sql(rows)}`
  }
}

const MESSAGES = [
  'My marathon training felt heavy today',
  'How should I prepare for the job interview next week?',
  'Mei called me about her piano lessons',
  'I am thinking about quitting the coding bootcamp',
  'What do you think about my trip to Japan in April?',
  '我最近在準備馬拉松，腳好痠',
  '小美說她下個月要開始學吉他',
  '面試前一天應該做什麼？',
  'I feel tired and a bit lost today',
  'Nothing special, just checking in',
  'Jun and Alex want to start a startup pitch together',
  '最近工作壓力很大',
]

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s.at(-1)! }
}
const ms = (x: number) => x.toFixed(2)

try {
  const person = await makeUser('recall')
  const t0 = performance.now()
  await fill(person.userId, N)
  for (let i = 0; i < OTHERS; i++) await fill((await makeUser(`other${i}`)).userId, 200)
  await sql`analyze memories`
  console.log(`${N} memories for one person, ${OTHERS} others with 200 each, written in ${((performance.now() - t0) / 1000).toFixed(1)} s (${db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`)

  for (const text of MESSAGES) await recallForReply(sql, person.userId, person.characterId, text) // warm-up
  // Interleaved with the recall, a trivial query of the same connection pool shows how loaded the machine is.
  const medians: number[] = []
  const baselines: number[] = []
  let recalled = 0
  for (let round = 0; round < ROUNDS; round++) {
    const times: number[] = []
    const trivial: number[] = []
    for (let i = 0; i < 60; i++) {
      const text = MESSAGES[i % MESSAGES.length]
      let start = performance.now()
      const r = await recallForReply(sql, person.userId, person.characterId, text)
      times.push(performance.now() - start)
      recalled += r.sources.memories.length
      start = performance.now()
      await sql`select 1`
      trivial.push(performance.now() - start)
    }
    const s = stats(times)
    medians.push(s.median)
    baselines.push(stats(trivial).median)
    console.log(`  round ${round + 1}: median ${ms(s.median)} ms, min ${ms(s.min)}, max ${ms(s.max)}; select 1: median ${ms(stats(trivial).median)} ms`)
  }
  const r = stats(medians)
  const b = stats(baselines)
  console.log(`recall with ${N} memories: min ${ms(r.min)} / median ${ms(r.median)} / max ${ms(r.max)} ms (medians of ${ROUNDS} rounds of 60 messages; ${(recalled / (ROUNDS * 60)).toFixed(1)} memories per prompt); select 1 in the same rounds: min ${ms(b.min)} / median ${ms(b.median)} / max ${ms(b.max)} ms`)

  // Extraction without a model: rules, then the writes of the job (duplicate check, insert) in one transaction.
  const writer = await makeUser('extract')
  const messages = CASES.map(([, text]) => text)
  const rates: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now()
    for (const text of messages) {
      const found = extractByRules(text)
      if (found.length)
        await sql.begin((tx) =>
          applyChanges(tx, writer.userId, null, { add: found.map((m) => ({ kind: m.kind, text: m.text, label: m.label, person: m.personName })), update: [], outdated: [] }),
        )
    }
    rates.push(messages.length / ((performance.now() - start) / 1000))
  }
  const e = stats(rates)
  console.log(`extraction without a model (rules + writes): min ${e.min.toFixed(0)} / median ${e.median.toFixed(0)} / max ${e.max.toFixed(0)} exchanges/s over ${ROUNDS} rounds of ${messages.length}`)
} finally {
  if (process.env.DATABASE_URL && !process.argv.includes('--keep')) await sql`delete from users where email like 'bench-%@example.com'`
  await db.close()
  rmSync(dataDir, { recursive: true, force: true })
}
