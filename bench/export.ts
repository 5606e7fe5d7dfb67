/**
 * "Download my data": the archive of one person with 10,000 and with 100,000 messages, to show that building it
 * takes flat memory (the issue's budget: memory stays flat for a person with 100,000 messages).
 *
 *   DATABASE_URL=postgres://… npx bun bench/export.ts          # PostgreSQL
 *   npx bun bench/export.ts --sizes 10000,100000 --rounds 3
 *
 * For each size a person is written straight into the database: 20 conversations sharing the messages (one in ten
 * with feedback, English and Chinese text of 20–400 characters), 5 images of 200 KB. Each round builds the archive
 * in a fresh subprocess (writeArchive to a file, as the job does) and reports the process's peak RSS above what it
 * held before the build, the time, and the archive's size; the figures are min / median / max over the rounds.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { loadConfig } from '../api/config'
import { openDatabase } from '../api/db/database'
import { migrate } from '../api/db/migrate'
import { diskStorage } from '../api/files/storage'
import { writeArchive } from '../api/self/dataExport'
import { zipToFile } from '../api/self/zipWriter'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}

if (process.argv.includes('--child')) {
  // One build, measured from inside: the baseline is taken after the database connection is open.
  const dataDir = arg('data', '')
  const cfg = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir, LLM_PROVIDER: 'offline' })
  const db = await openDatabase(cfg)
  await db.sql`select 1`
  Bun.gc(true)
  const before = process.memoryUsage().rss
  let peak = before
  // The JavaScript heap beside the RSS: RSS also counts pages the allocator keeps after a collection.
  let heap = process.memoryUsage().heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peak = Math.max(peak, now.rss)
    heap = Math.max(heap, now.heapUsed)
  }, 5)
  const out = join(dataDir, `bench-${process.pid}.zip`)
  const started = performance.now()
  const zip = zipToFile(out)
  await writeArchive(db.sql, diskStorage(join(dataDir, 'files')), zip, arg('user', ''), { freeLimitPeriod: cfg.freeLimitPeriod })
  const size = await zip.finish()
  const ms = performance.now() - started
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  console.log(JSON.stringify({ ms, peakMb: (peak - before) / 1048576, heapMb: heap / 1048576, sizeMb: size / 1048576, onDisk: statSync(out).size }))
  rmSync(out)
  await db.close()
  process.exit(0)
}

const sizes = arg('sizes', '10000,100000').split(',').map(Number)
const rounds = Number(arg('rounds', '3'))
const dataDir = mkdtempSync(join(tmpdir(), 'idealself-bench-export-'))
const cfg = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir, LLM_PROVIDER: 'offline' })
const db = await openDatabase(cfg)
const sql = db.sql
await migrate(sql)
const storage = diskStorage(join(dataDir, 'files'))

async function seed(messages: number): Promise<string> {
  const [user] = await sql<{ id: string }[]>`
    insert into users (email, name, role) values (${`bench-export-${messages}-${Date.now()}@example.com`}, 'Bench', 'REGULAR') returning id`
  const [character] = await sql<{ id: string }[]>`
    insert into characters (user_id, name, is_ready, prompt) values (${user.id}, 'Ideal Self', true, 'You are calm.') returning id`
  await sql`
    insert into conversations (user_id, character_id, name)
    select ${user.id}, ${character.id}, 'Talk ' || g from generate_series(1, 20) g`
  // Text from a fixed mix of English and Chinese, 20–400 characters, spread over the conversations.
  await sql`
    insert into messages (conversation_id, user_id, role, text, created_at)
    select c.id, ${user.id}, case when g % 2 = 0 then 'USER' else 'ASSISTANT' end,
      left(repeat(case when g % 3 = 0 then '今天我去了海邊，想了很多關於未來的事。' else 'I walked by the harbour and thought about next year. ' end, 20), 20 + (g * 37) % 380),
      now() - (${messages} - g) * interval '1 minute'
    from generate_series(1, ${messages}) g
    join lateral (select id from conversations where user_id = ${user.id} order by name offset (g % 20) limit 1) c on true`
  await sql`
    insert into message_feedbacks (message_id, user_id, feedback_text)
    select id, ${user.id}, 'That helped, thank you.' from messages where user_id = ${user.id} and role = 'ASSISTANT' and random() < 0.1`
  for (let i = 0; i < 5; i++) {
    const [file] = await sql<{ id: string }[]>`
      insert into files (user_id, storage_key, mime_type, size_bytes) values (${user.id}, 'pending', 'image/png', 204800) returning id`
    const key = `${user.id}/${file.id}`
    await storage.put(key, crypto.getRandomValues(new Uint8Array(204800)))
    await sql`update files set storage_key = ${key} where id = ${file.id}`
  }
  return user.id
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s.at(-1)! }
}
const f = (x: number, d = 1) => x.toFixed(d)

console.log(`| messages | peak RSS above baseline MB (min / median / max) | peak JS heap MB (min / median / max) | time s (min / median / max) | archive MB |`)
console.log(`|---|---|---|---|---|`)
for (const size of sizes) {
  const userId = await seed(size)
  const runs = []
  for (let r = 0; r < rounds; r++) {
    const child = spawnSync(process.execPath, [import.meta.path, '--child', '--user', userId, '--data', dataDir], {
      env: process.env,
      encoding: 'utf8',
    })
    if (child.status !== 0) throw new Error(child.stderr)
    runs.push(JSON.parse(child.stdout.trim().split('\n').at(-1)!))
  }
  const peak = stats(runs.map((r) => r.peakMb))
  const heap = stats(runs.map((r) => r.heapMb))
  const time = stats(runs.map((r) => r.ms / 1000))
  console.log(`| ${size.toLocaleString('en')} | ${f(peak.min)} / ${f(peak.median)} / ${f(peak.max)} | ${f(heap.min)} / ${f(heap.median)} / ${f(heap.max)} | ${f(time.min, 2)} / ${f(time.median, 2)} / ${f(time.max, 2)} | ${f(runs[0].sizeMb)} |`)
  await sql`delete from users where id = ${userId}`
}
await db.close()
rmSync(dataDir, { recursive: true, force: true })
