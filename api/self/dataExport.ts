// "Download my data" (settings): one ZIP of everything the account holds, built by a durable job, kept for a day
// and built afresh on request. Conversations are read through cursors and written entry by entry, so building the
// archive of a person with a hundred thousand messages takes no more memory than one with ten (bench/export.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { enqueue, holdsClaim, PermanentJobError } from '../jobs/queue'
import type { JobHandler } from '../jobs/worker'
import { inBatches } from '../jobs/periodic'
import { listCharacters } from '../characters/characters'
import { readGraph } from '../relations/graph'
import { listMemories, toMemoryView } from '../memory/memories'
import { toUser, type UserRow } from '../users/users'
import type { Config } from '../config'
import { zipToFile, type ZipWriter } from './zipWriter'
import { archiveLanguage, conversationHeading, markdownMessage, readme } from './exportText'

export const BUILD_DATA_EXPORT = 'build-data-export'
/** How long a finished archive may be downloaded (issue: a link valid for 24 hours). */
export const EXPORT_LIFETIME_MS = 24 * 60 * 60 * 1000
const CURSOR_ROWS = 500
/** The archive is written in a temporary folder of this prefix before it is stored. */
export const EXPORT_TEMP_PREFIX = 'idealself-export-'

export type ExportStatus = 'PENDING' | 'RUNNING' | 'READY' | 'FAILED'

interface ExportRow {
  id: string
  user_id: string
  status: ExportStatus
  done_items: number
  total_items: number
  storage_key: string | null
  size_bytes: string | null
  created_at: Date
  ready_at: Date | null
  expires_at: Date | null
  last_error?: string | null
}

export interface DataExport {
  id: string
  status: ExportStatus
  /** READY but past expiresAt: the archive is gone and a new one must be requested. */
  expired: boolean
  progress: { done: number; total: number }
  sizeBytes: number | null
  createdAt: string
  readyAt: string | null
  expiresAt: string | null
  /** Where the archive downloads from while it is ready and not expired. */
  downloadUrl: string | null
}

export function toDataExport(row: ExportRow, now = new Date()): DataExport {
  const expired = row.status === 'READY' && !!row.expires_at && row.expires_at <= now
  return {
    id: row.id,
    status: row.status,
    expired,
    progress: { done: row.done_items, total: row.total_items },
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    createdAt: row.created_at.toISOString(),
    readyAt: row.ready_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    downloadUrl: row.status === 'READY' && !expired ? `/api/v1/self/data-exports/${row.id}/download` : null,
  }
}

/** The newest export of the person, or null when they never asked for one. */
export async function latestExport(sql: Sql, userId: string): Promise<ExportRow | null> {
  const [row] = await sql<ExportRow[]>`
    select * from data_exports where user_id = ${userId} order by created_at desc, id desc limit 1`
  return row ?? null
}

export async function findExport(sql: Sql, userId: string, id: string): Promise<ExportRow | null> {
  const [row] = await sql<ExportRow[]>`select * from data_exports where id = ${id} and user_id = ${userId}`
  return row ?? null
}

/**
 * A new archive, queued; while one is still being built that one is returned instead, so pressing the button
 * twice builds once. `language` is the README's (the settings page sends its own).
 */
export async function requestExport(sql: Sql, userId: string, language: string | null): Promise<ExportRow> {
  return sql.begin(async (tx) => {
    // One request at a time per person: the lock makes "is one building?" and the insert one step.
    await tx`select id from users where id = ${userId} for update`
    const [building] = await tx<ExportRow[]>`
      select * from data_exports where user_id = ${userId} and status in ('PENDING', 'RUNNING') limit 1`
    if (building) return building
    const [row] = await tx<ExportRow[]>`insert into data_exports (user_id) values (${userId}) returning *`
    const job = await enqueue(tx, { kind: BUILD_DATA_EXPORT, userId, payload: { exportId: row.id, language }, maxAttempts: 3 })
    await tx`update data_exports set job_id = ${job.id} where id = ${row.id}`
    return row
  })
}

interface ConversationRow {
  id: string
  name: string
  character_id: string | null
  character_name: string | null
  created_at: Date
  updated_at: Date
}

interface MessageRow {
  id: string
  role: 'USER' | 'ASSISTANT'
  text: string
  status: string
  version: number
  created_at: Date
  feedback: { text: string; version: number; createdAt: string }[]
  file_ids: string[]
}

interface FileRow {
  id: string
  storage_key: string
  mime_type: string
  original_name: string | null
  created_at: Date
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n'
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }
const imageName = (f: { id: string; mime_type: string }) => `images/${f.id}.${EXTENSIONS[f.mime_type] ?? 'bin'}`
const conversationFile = (index: number, c: ConversationRow) => `conversations/${String(index + 1).padStart(4, '0')}-${c.id}`

function messagesOf(sql: Sql, userId: string, conversationId: string) {
  return sql<MessageRow[]>`
    select m.id, m.role, m.text, m.status, m.version, m.created_at,
      coalesce((select json_agg(json_build_object('text', f.feedback_text, 'version', f.version,
        'createdAt', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by f.created_at)
        from message_feedbacks f where f.message_id = m.id), '[]') as feedback,
      coalesce((select array_agg(mf.file_id order by mf.position) from message_files mf where mf.message_id = m.id), '{}') as file_ids
    from messages m where m.conversation_id = ${conversationId} and m.user_id = ${userId}
    order by m.created_at, m.id`.cursor(CURSOR_ROWS)
}

// What the archive reads is garbage as soon as it is written, but the collector left it lying until the process had
// grown with the size of the archive (+200 MB for 300,000 messages): a full collection every 20,000 rows keeps it
// flat (≈ 60 MB of heap at any size, bench/README.md) for a pause of 15–20 ms each, a few per second of building.
const ROWS_BETWEEN_COLLECTIONS = 20_000
let rowsSinceCollection = 0
function collectNow(rows: number) {
  rowsSinceCollection += rows
  if (rowsSinceCollection < ROWS_BETWEEN_COLLECTIONS) return
  rowsSinceCollection = 0
  Bun.gc(true)
}

/** Writes every part of the archive; `progress` is told after each conversation and image. */
export async function writeArchive(
  sql: Sql,
  storage: { get(key: string): Promise<Uint8Array | null> },
  zip: ZipWriter,
  userId: string,
  opts: { language?: string | null; freeLimitPeriod: Config['freeLimitPeriod']; progress?: (done: number, total: number) => Promise<void> },
) {
  const [user] = await sql<UserRow[]>`select * from users where id = ${userId}`
  if (!user) throw new PermanentJobError('The account no longer exists')
  const [training] = await sql`select * from training_data where user_id = ${userId}`
  const language = archiveLanguage(opts.language, training?.preferred_language)
  const exportedAt = new Date()

  const [conversations, files, characters, story, imports, memories] = await Promise.all([
    sql<ConversationRow[]>`
      select c.id, c.name, c.character_id, ch.name as character_name, c.created_at, c.updated_at
      from conversations c left join characters ch on ch.id = c.character_id
      where c.user_id = ${userId} order by c.created_at, c.id`,
    sql<FileRow[]>`select id, storage_key, mime_type, original_name, created_at from files where user_id = ${userId} order by created_at, id`,
    listCharacters(sql, userId, true),
    sql`select role, content, created_at from story_entries where user_id = ${userId} order by id`,
    sql`
      select id, character_id, user_name, status, file_count, message_count, user_message_count, people_count,
        speaking_style, own_messages as style_sample, created_at, finished_at,
        coalesce((select json_agg(json_build_object('name', f.original_name, 'platform', f.platform, 'messages', f.message_count)
          order by f.position) from chat_history_files f where f.import_id = i.id), '[]') as files
      from chat_history_imports i where user_id = ${userId} order by created_at, id`,
    listMemories(sql, userId),
  ])
  const [{ count: messageCount }] = await sql<{ count: number }[]>`select count(*)::int as count from messages where user_id = ${userId}`
  const graphs = await Promise.all(characters.map(async (c) => ({ characterId: c.id, characterName: c.name, graph: await readGraph(sql, c.id) })))
  const [cardRows, styles] = await Promise.all([
    sql<{ id: string; card_description: string | null; first_message: string | null }[]>`
      select id, card_description, first_message from characters where user_id = ${userId}`,
    sql<{ id: string; speaking_style: unknown }[]>`select id, speaking_style from characters where user_id = ${userId}`,
  ])
  const people = graphs.reduce((n, g) => n + g.graph.nodes.filter((node) => !node.properties.isSelf).length, 0)
  const fileNames = new Map(files.map((f) => [f.id, imageName(f)]))

  zip.add('README.txt', readme(language, user.name, exportedAt, {
    conversations: conversations.length, messages: messageCount, characters: characters.length, people, memories: memories.length, images: files.length,
  }))
  zip.add('profile.json', json({
    exportedAt: exportedAt.toISOString(),
    user: { ...toUser(user, opts.freeLimitPeriod), email: user.email, createdAt: user.created_at.toISOString() },
    trainingData: training
      ? {
          userName: training.user_name,
          originalIdealSelfDescription: training.original_ideal_self_description,
          improvedIdealSelfRoleName: training.improved_ideal_self_role_name,
          improvedIdealSelfRoleDescription: training.improved_ideal_self_role_description,
          preferredLanguage: training.preferred_language,
        }
      : null,
    story: story.map((s) => ({ role: s.role, text: s.content, createdAt: s.created_at.toISOString() })),
  }))
  const cards = new Map(cardRows.map((r) => [r.id, r]))
  const styleOf = new Map(styles.map((r) => [r.id, r.speaking_style]))
  zip.add('characters.json', json(characters.map((c) => ({
    ...c,
    cardDescription: cards.get(c.id)?.card_description ?? null,
    firstMessage: cards.get(c.id)?.first_message ?? null,
    speakingStyle: styleOf.get(c.id) ?? null,
  }))))
  zip.add('relations.json', json(graphs))
  zip.add('chat-imports.json', json(imports.map((i) => ({
    id: i.id, characterId: i.character_id, userName: i.user_name, status: i.status, files: i.files,
    messageCount: i.message_count, userMessageCount: i.user_message_count, peopleCount: i.people_count,
    people: graphs.find((g) => g.characterId === i.character_id)?.graph.nodes.filter((n) => !n.properties.isSelf).map((n) => n.properties.name) ?? [],
    speakingStyle: i.speaking_style, styleSample: i.style_sample,
    createdAt: i.created_at.toISOString(), finishedAt: i.finished_at?.toISOString() ?? null,
  }))))
  zip.add('memories.json', json(memories.map(toMemoryView)))

  const total = conversations.length + files.length
  let done = 0
  await opts.progress?.(done, total)
  for (const [index, c] of conversations.entries()) {
    const base = conversationFile(index, c)
    // JSON first, then the readable copy: each entry is one pass over the messages, streamed.
    const data = zip.entry(`${base}.json`)
    data.write(`{\n  "id": ${JSON.stringify(c.id)},\n  "name": ${JSON.stringify(c.name)},\n  "characterId": ${JSON.stringify(c.character_id)},\n`
      + `  "characterName": ${JSON.stringify(c.character_name)},\n  "createdAt": "${c.created_at.toISOString()}",\n  "updatedAt": "${c.updated_at.toISOString()}",\n  "messages": [`)
    let first = true
    for await (const rows of messagesOf(sql, userId, c.id)) {
      collectNow(rows.length)
      let chunk = ''
      for (const m of rows) {
        chunk += (first ? '\n    ' : ',\n    ') + JSON.stringify({
          id: m.id, role: m.role, text: m.text, status: m.status, version: m.version, createdAt: m.created_at.toISOString(),
          feedback: m.feedback, images: m.file_ids.map((id) => fileNames.get(id) ?? id),
        })
        first = false
      }
      data.write(chunk)
    }
    data.write('\n  ]\n}\n')
    data.end()
    const md = zip.entry(`${base}.md`)
    md.write(conversationHeading(language, c.name, c.character_name, c.created_at))
    const userName = training?.user_name || user.name
    for await (const rows of messagesOf(sql, userId, c.id)) {
      collectNow(rows.length)
      md.write(rows.map((m) => markdownMessage(language, userName, c.character_name, {
        role: m.role, text: m.text, createdAt: m.created_at, feedback: m.feedback.map((f) => f.text),
        fileNames: m.file_ids.flatMap((id) => fileNames.get(id) ?? []),
      })).join(''))
    }
    md.end()
    await opts.progress?.(++done, total)
  }
  for (const f of files) {
    const bytes = await storage.get(f.storage_key)
    if (bytes) zip.add(imageName(f), bytes, { store: true })
    await opts.progress?.(++done, total)
  }
}

async function setProgress(sql: Sql, exportId: string, done: number, total: number) {
  await sql`update data_exports set done_items = ${done}, total_items = ${total} where id = ${exportId}`
}

export const buildDataExportJob: JobHandler = async (job, { ctx }) => {
  const { sql, storage } = ctx
  const exportId = String(job.payload.exportId)
  const [row] = await sql<ExportRow[]>`
    update data_exports set status = 'RUNNING', done_items = 0 where id = ${exportId} and user_id = ${job.user_id} returning *`
  if (!row) throw new PermanentJobError('The export no longer exists')
  const dir = await mkdtemp(join(tmpdir(), EXPORT_TEMP_PREFIX))
  const path = join(dir, 'archive.zip')
  const zip = zipToFile(path)
  try {
    let lastWrite = 0
    await writeArchive(sql, storage, zip, job.user_id, {
      language: typeof job.payload.language === 'string' ? job.payload.language : null,
      freeLimitPeriod: ctx.cfg.freeLimitPeriod,
      // At most a few writes a second, however many small conversations there are.
      progress: async (done, total) => {
        if (done < total && Date.now() - lastWrite < 250) return
        lastWrite = Date.now()
        await setProgress(sql, exportId, done, total)
      },
    })
    const size = await zip.finish()
    // One key per attempt, so a run that lost its claim removes only its own file.
    const key = `${job.user_id}/export-${exportId}-${job.attempts}`
    await storage.putFile(key, path)
    const stale = await sql.begin(async (tx: TransactionSql<{}>) => {
      // The account may have been deleted while the archive was built (its jobs and exports go with it): then the
      // archive just stored must not outlive it.
      if (!(await holdsClaim(tx, job))) return [{ storage_key: key }]
      await tx`
        update data_exports set status = 'READY', storage_key = ${key}, size_bytes = ${size}, ready_at = now(),
          expires_at = now() + ${`${EXPORT_LIFETIME_MS} milliseconds`}::interval
        where id = ${exportId}`
      // Only the newest archive is kept: older ones are dropped as soon as this one is ready.
      const older = await tx<{ storage_key: string }[]>`
        select storage_key from data_exports where user_id = ${job.user_id} and id <> ${exportId} and storage_key is not null for update`
      await tx`
        update data_exports set storage_key = null, expires_at = least(expires_at, now())
        where user_id = ${job.user_id} and id <> ${exportId} and storage_key is not null`
      return older
    })
    for (const s of stale) if (s.storage_key) await storage.remove(s.storage_key)
  } catch (error) {
    zip.abort()
    if (job.attempts >= job.max_attempts || error instanceof PermanentJobError)
      await sql`update data_exports set status = 'FAILED' where id = ${exportId}`
    throw error
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Archives removed per transaction: the rows stay locked while their files are removed. */
const DROP_BATCH = 100

/**
 * Removes every archive past its day from storage and forgets its key, periodically, so an archive whose owner never
 * comes back does not stay. The row stays READY with its expiry, so the person is told it expired and may ask for a
 * new one (the download answers 410 from the expiry alone, before the sweep comes). Rows are claimed with
 * `skip locked`, so sweeps running at once on several instances each remove an archive exactly once; the key is
 * cleared only after its file is gone, so a sweep that dies half-way leaves the key for the next one. Returns how
 * many archives were removed.
 */
export async function dropExpiredArchives(sql: Sql, storage: { remove(key: string): Promise<void> }): Promise<number> {
  return inBatches(DROP_BATCH, (limit) =>
    sql.begin(async (tx) => {
      const rows = await tx<{ id: string; storage_key: string }[]>`
        select id, storage_key from data_exports
        where storage_key is not null and expires_at <= now()
        order by expires_at limit ${limit}
        for update skip locked`
      for (const r of rows) await storage.remove(r.storage_key)
      if (rows.length) await tx`update data_exports set storage_key = null where id in ${tx(rows.map((r) => r.id))}`
      return rows.length
    }),
  )
}
