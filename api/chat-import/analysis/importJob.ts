// The `analyze-chat-history` job (spec §4 "Chat-history import", DESIGN §7): parses the stored exports again,
// measures the user's speaking style (on these chats and the user's own messages kept from earlier imports, so it
// grows with each import), proposes the people of the relationship graph, hands both to the character prompt, and
// only then merges the people into the graph (relations/proposedGraph.ts states the rule) and marks the relations
// ready. Every import is merged, whatever the order they finish in.
//
// The proposed relations go into the prompt at once, so the character knows the people even if the user never
// opens the editor; the graph the user saves later replaces them (routes/relations.ts). Every step before the final
// transaction can be repeated: a retry, or a worker taking over from a killed one, does the same work again.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../../db/database'
import { lockCharacter, rebuildCharacterPrompt } from '../../characters/characterPrompt'
import { PermanentJobError, holdsClaim, type JobRow } from '../../jobs/queue'
import type { JobHandler, JobRun } from '../../jobs/worker'
import { currentPeople, mergePeople, writeGraph, type ProposedRelation } from '../../relations/proposedGraph'
import type { LocalFile } from '../../files/storage'
import { analyzeChats, type AnalyzedStyle } from './analyzeChats'
import { measureExportsApart } from './exportProcess'
import type { ImportStatus } from './imports'
import { promptStyle, type KeptMessage } from './speakingStyle'

export { ANALYZE_CHAT_HISTORY } from './imports'

type Db = Sql | TransactionSql<{}>

interface ImportJobRow {
  id: string
  user_id: string
  character_id: string
  user_name: string
  status: ImportStatus
}

interface StoredFile {
  original_name: string
  storage_key: string | null
}

const FINISHED: ImportStatus[] = ['SUCCEEDED', 'FAILED', 'SUPERSEDED']

/** The user's own messages kept by the character's other finished imports, oldest import first. */
async function earlierKept(sql: Db, row: ImportJobRow): Promise<KeptMessage[][]> {
  const rows = await sql<{ own_messages: KeptMessage[] }[]>`
    select own_messages from chat_history_imports
    where character_id = ${row.character_id} and id <> ${row.id} and status = 'SUCCEEDED' and own_messages is not null
    order by created_at, id`
  return rows.map((r) => r.own_messages)
}

/** Whether another import of the character is still on its way (the relations are ready once none is). */
const othersPending = (tx: Db, row: ImportJobRow) => tx`
  select 1 from chat_history_imports where character_id = ${row.character_id} and id <> ${row.id} and status in ('PENDING', 'RUNNING')`

/**
 * The stored exports leave storage once their import is over: they hold other people's messages. Returns the
 * storage keys to remove after the transaction commits.
 */
async function forgetFiles(tx: TransactionSql<{}>, importId: string): Promise<string[]> {
  const files = await tx<{ storage_key: string }[]>`
    select storage_key from chat_history_files where import_id = ${importId} and storage_key is not null for update`
  await tx`update chat_history_files set storage_key = null where import_id = ${importId}`
  return files.map((f) => f.storage_key)
}

async function removeStored(run: JobRun, keys: string[]) {
  await Promise.all(keys.map((key) => run.ctx.storage.remove(key)))
}

/**
 * Parses the stored exports and measures them in a child process (exportProcess.ts), with the person's messages kept
 * by the character's earlier imports so the style grows with each import.
 */
async function measureImport(run: JobRun, row: ImportJobRow) {
  const files = await run.ctx.sql<StoredFile[]>`
    select original_name, storage_key from chat_history_files where import_id = ${row.id} order by position`
  const local: LocalFile[] = []
  try {
    for (const file of files) {
      const stored = file.storage_key ? await run.ctx.storage.local(file.storage_key) : null
      if (!stored) throw new PermanentJobError(`${file.original_name} is no longer stored; upload it again`)
      local.push(stored)
    }
    const measurement = await measureExportsApart(
      { files: files.map((f, i) => ({ name: f.original_name, path: local[i].path })), userName: row.user_name, earlier: await earlierKept(run.ctx.sql, row) },
      run.signal,
    )
    if (!measurement.ok) throw new PermanentJobError(measurement.error)
    return measurement
  } finally {
    await Promise.all(local.map((f) => f.release()))
  }
}

interface Outcome {
  proposed: ProposedRelation[]
  style: AnalyzedStyle
  kept: KeptMessage[]
}

/**
 * Ends the import in one transaction that still holds the claim: the import's people are merged into the graph as
 * it stands now (another import may have finished meanwhile), and the relations are ready unless another import is
 * still on its way.
 */
async function finish(job: JobRow, run: JobRun, row: ImportJobRow, outcome: Outcome): Promise<void> {
  const removable = await run.ctx.sql.begin(async (tx) => {
    // Character first, then the job: the order a character deletion takes them (jobs cascade from characters).
    if (!(await lockCharacter(tx, row.character_id))) return []
    if (!(await holdsClaim(tx, job))) throw new Error('Another worker took over this job; its result stands')
    const people = mergePeople(await currentPeople(tx, row.character_id), outcome.proposed)
    await writeGraph(tx, { characterId: row.character_id, userId: row.user_id, userName: row.user_name }, people)
    const ready = (await othersPending(tx, row)).length === 0
    await tx`update characters set relations_ready = ${ready}, updated_at = now() where id = ${row.character_id}`
    await tx`
      insert into character_stage_completions (character_id, stage) values (${row.character_id}, 'UPLOAD_CHAT_HISTORY')
      on conflict (character_id, stage) do nothing`
    await tx`
      update chat_history_imports set
        status = 'SUCCEEDED', error = null, finished_at = now(), people_count = ${outcome.proposed.length},
        speaking_style = ${tx.json(outcome.style as never)}, own_messages = ${tx.json(outcome.kept as never)}
      where id = ${row.id}`
    return forgetFiles(tx, row.id)
  })
  await removeStored(run, removable)
}

async function analyze(job: JobRow, run: JobRun, row: ImportJobRow): Promise<void> {
  const { sql } = run.ctx
  await sql`
    update chat_history_imports set status = 'RUNNING', started_at = coalesce(started_at, now()) where id = ${row.id}`
  const { measured, kept } = await measureImport(run, row)
  const analysis = await analyzeChats(run.ctx.model.provider, measured, row.user_name, run.signal)
  const proposed = analysis.people.map((p) => ({
    name: p.name,
    types: p.types,
    closeness: p.closeness,
    messageCount: p.sent,
    userMessageCount: p.received,
    lastMessageAt: p.lastMessageAt,
  }))
  // The prompt's people: the merge as it would be now; finish merges again under the character's lock.
  const people = mergePeople(await currentPeople(sql, row.character_id), proposed)
  // The prompt first (it takes its own transaction): if the process dies before the graph is written, the retry
  // writes both again; the other way round a finished import could leave the prompt without its style.
  await rebuildCharacterPrompt(sql, row.character_id, {
    speakingStyle: promptStyle(analysis.style, analysis.style.summary),
    relations: people.map((p) => ({ name: p.name, types: p.types, closeness: p.closeness })),
  })
  await finish(job, run, row, { proposed, style: analysis.style, kept })
}

/**
 * The import's last attempt failed: it is FAILED with the error, its exports are removed, and the relations are
 * ready again if an earlier graph exists, unless a newer import is still on its way.
 */
async function recordFailure(run: JobRun, row: ImportJobRow, error: string): Promise<void> {
  const removable = await run.ctx.sql.begin(async (tx) => {
    if (!(await lockCharacter(tx, row.character_id))) return []
    await tx`
      update chat_history_imports set status = 'FAILED', error = ${error}, finished_at = now()
      where id = ${row.id} and status in ('PENDING', 'RUNNING')`
    await tx`
      update characters set relations_ready = exists (select 1 from relation_edges where character_id = ${row.character_id})
      where id = ${row.character_id} and not exists (
        select 1 from chat_history_imports where character_id = ${row.character_id} and status in ('PENDING', 'RUNNING'))`
    return forgetFiles(tx, row.id)
  })
  await removeStored(run, removable)
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export const analyzeChatHistoryJob: JobHandler = async (job, run) => {
  const importId = job.payload.importId
  if (typeof importId !== 'string') throw new PermanentJobError('The job names no import')
  const [row] = await run.ctx.sql<ImportJobRow[]>`
    select id, user_id, character_id, user_name, status from chat_history_imports where id = ${importId}`
  // Gone with its character, or finished by an earlier attempt that died before the queue heard of it.
  if (!row || FINISHED.includes(row.status)) return
  try {
    await analyze(job, run, row)
  } catch (error) {
    // A stopping worker or a lost claim is not this import's failure: another attempt follows.
    if (!run.signal.aborted) {
      const last = error instanceof PermanentJobError || job.attempts >= job.max_attempts
      if (last) await recordFailure(run, row, messageOf(error))
      else await run.ctx.sql`update chat_history_imports set error = ${messageOf(error)} where id = ${row.id}`
    }
    throw error
  }
}
