// Chat-history imports: the stored exports, the import row and its analysis job, written together; and how an
// import is doing. Every read names the owner or goes through a character the caller owns.
import { createHash } from 'node:crypto'
import type { TransactionSql } from 'postgres'
import type { Sql } from '../../db/database'
import type { FileStorage } from '../../files/storage'
import { enqueue } from '../../jobs/queue'
import type { ParsedExport } from './uploads'
import { userNameIn } from './userNameIn'

type Db = Sql | TransactionSql<{}>

export const ANALYZE_CHAT_HISTORY = 'analyze-chat-history'

/** SUPERSEDED: an older import that gave way to a newer one before every import was merged; no longer given. */
export type ImportStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'SUPERSEDED'

export interface ImportState {
  id: string
  userName: string
  status: ImportStatus
  /** The last attempt's error: while retrying, or why the import failed. */
  error: string | null
  fileCount: number
  totalBytes: number
  messageCount: number
  userMessageCount: number
  peopleCount: number | null
  files: { fileName: string; sizeBytes: number; platform: string; messageCount: number }[]
  createdAt: string
  finishedAt: string | null
}

/** What makes two uploads the same: the chosen name and every file's bytes (their SHA-256, hex), in order. */
export function contentDigest(userName: string, fileDigests: string[]): string {
  const hash = createHash('sha256').update(`${userName}\n${fileDigests.length}\n`)
  for (const digest of fileDigests) hash.update(`${digest}\n`)
  return hash.digest('hex')
}

/** An import of the same content for the character that is still on its way (a second click, a resent request). */
async function inFlight(sql: Db, characterId: string, digest: string): Promise<string | null> {
  const [same] = await sql<{ id: string }[]>`
    select id from chat_history_imports
    where character_id = ${characterId} and content_digest = ${digest} and status in ('PENDING', 'RUNNING')
    order by created_at desc limit 1`
  return same?.id ?? null
}

/**
 * Stores the exports under the user's id and records the import with its files; in the same transaction the
 * character's relations stop being ready and the analysis job is queued. The same upload again while its import is
 * still pending or running is that import (`repeated`), so a double submission starts one analysis. Null when the
 * character is not the user's (nothing stays stored then). The caller kicks the job worker.
 */
export async function startImport(
  deps: { sql: Sql; storage: FileStorage },
  input: { userId: string; characterId: string; userName: string; exports: ParsedExport[] },
): Promise<{ id: string; repeated: boolean } | null> {
  const { sql, storage } = deps
  const { userId, characterId, userName, exports } = input
  const digest = contentDigest(userName, exports.map((e) => e.sha256))
  const [owned] = await sql`select 1 from characters where id = ${characterId} and user_id = ${userId}`
  if (!owned) return null
  const earlier = await inFlight(sql, characterId, digest)
  if (earlier) return { id: earlier, repeated: true }
  const stored = exports.map((e) => ({ ...e, key: `${userId}/${crypto.randomUUID()}` }))
  const totals = {
    bytes: stored.reduce((n, s) => n + s.size, 0),
    messages: stored.reduce((n, s) => n + s.summary.messageCount, 0),
    userMessages: stored.reduce((n, { summary }) => n + (summary.messagesBy[summary.speakers.indexOf(userNameIn(summary.speakers, userName))] ?? 0), 0),
  }
  // The staged files move into storage (on disk: renamed; in a bucket: uploaded as they are read).
  await Promise.all(stored.map((s) => storage.putFile(s.key, s.path)))
  try {
    const started = await sql.begin(async (tx) => {
      const [owned] = await tx`select 1 from characters where id = ${characterId} and user_id = ${userId} for update`
      if (!owned) return null
      // Under the character's lock: of two identical requests at once, the second finds the first's import here.
      const same = await inFlight(tx, characterId, digest)
      if (same) return { id: same, repeated: true }
      const id = crypto.randomUUID()
      const job = await enqueue(tx, { kind: ANALYZE_CHAT_HISTORY, userId, characterId, payload: { importId: id } })
      await tx`
        insert into chat_history_imports (id, user_id, character_id, user_name, file_count, total_bytes, message_count, user_message_count, job_id, content_digest)
        values (${id}, ${userId}, ${characterId}, ${userName}, ${stored.length}, ${totals.bytes}, ${totals.messages}, ${totals.userMessages}, ${job.id}, ${digest})`
      await tx`
        insert into chat_history_files ${tx(
          stored.map((s, position) => ({
            import_id: id,
            position,
            original_name: s.fileName,
            storage_key: s.key,
            size_bytes: s.size,
            platform: s.summary.platform,
            message_count: s.summary.messageCount,
          })),
        )}`
      await tx`update characters set relations_ready = false, updated_at = now() where id = ${characterId}`
      return { id, repeated: false }
    })
    if (!started || started.repeated) await Promise.all(stored.map((s) => storage.remove(s.key)))
    return started
  } catch (error) {
    await Promise.all(stored.map((s) => storage.remove(s.key)))
    throw error
  }
}

interface ImportRow {
  id: string
  user_name: string
  status: ImportStatus
  error: string | null
  file_count: number
  total_bytes: string
  message_count: number
  user_message_count: number
  people_count: number | null
  files: { original_name: string; size_bytes: number; platform: string; message_count: number }[]
  created_at: Date
  finished_at: Date | null
}

const toImportState = (row: ImportRow): ImportState => ({
  id: row.id,
  userName: row.user_name,
  status: row.status,
  error: row.error,
  fileCount: row.file_count,
  totalBytes: Number(row.total_bytes),
  messageCount: row.message_count,
  userMessageCount: row.user_message_count,
  peopleCount: row.people_count,
  files: row.files.map((f) => ({ fileName: f.original_name, sizeBytes: Number(f.size_bytes), platform: f.platform, messageCount: f.message_count })),
  createdAt: row.created_at.toISOString(),
  finishedAt: row.finished_at?.toISOString() ?? null,
})

/**
 * The character's imports, oldest first. A job whose worker died on its last attempt is failed by the queue without
 * the handler seeing it, so such an import reads as FAILED with the job's error.
 */
function selectImports(sql: Sql, userId: string, characterId: string, latestOnly = false) {
  return sql<ImportRow[]>`
    select i.id, i.user_name,
      case when i.status in ('PENDING', 'RUNNING') and j.status = 'FAILED' then 'FAILED' else i.status end as status,
      coalesce(i.error, j.last_error) as error,
      i.file_count, i.total_bytes, i.message_count, i.user_message_count, i.people_count, i.created_at, i.finished_at,
      coalesce((select json_agg(f order by f.position) from (
        select position, original_name, size_bytes, platform, message_count from chat_history_files where import_id = i.id) f), '[]') as files
    from chat_history_imports i left join jobs j on j.id = i.job_id
    where i.user_id = ${userId} and i.character_id = ${characterId}
    order by i.created_at ${latestOnly ? sql`desc` : sql`asc`}, i.id
    ${latestOnly ? sql`limit 1` : sql``}`
}

export async function listImports(sql: Sql, userId: string, characterId: string): Promise<ImportState[]> {
  return (await selectImports(sql, userId, characterId)).map(toImportState)
}

export async function latestImport(sql: Sql, userId: string, characterId: string): Promise<ImportState | null> {
  const [row] = await selectImports(sql, userId, characterId, true)
  return row ? toImportState(row) : null
}
