// The `extract-memories` job: after each exchange, what the person's message adds to what the companion remembers.
// With a model, one JSON-schema call sees the message and the related known memories; with none, the rule-based
// extractor reads it. It runs on the durable queue, so a reply is never held up or failed by it.
import type { Sql } from '../db/database'
import type { TransactionSql } from 'postgres'
import { enqueue, holdsClaim } from '../jobs/queue'
import type { JobHandler } from '../jobs/worker'
import { memoryExtractorMessages, memoryExtractorSchema, type ExtractedChanges, type KnownMemory } from '../prompts/memoryExtractor.v1'
import { graphPeople, recallMemories } from './recall'
import { applyChanges } from './remember'
import { extractByRules } from './ruleExtractor'
import { embedMemories } from './embeddings'

export const EXTRACT_MEMORIES = 'extract-memories'

export interface ExchangeRef {
  userId: string
  characterId: string
  userMessageId: string
  botMessageId: string
}

export const enqueueExtraction = (sql: Sql | TransactionSql<{}>, ref: ExchangeRef) =>
  enqueue(sql, {
    kind: EXTRACT_MEMORIES,
    userId: ref.userId,
    characterId: ref.characterId,
    payload: { userMessageId: ref.userMessageId, botMessageId: ref.botMessageId },
  })

/** How many known memories the model sees: the related ones first, then the latest. */
const KNOWN_FOR_MODEL = 30

export const extractMemoriesJob: JobHandler = async (job, { ctx, signal }) => {
  const { sql } = ctx
  const { userMessageId, botMessageId } = job.payload as { userMessageId: string; botMessageId: string }
  const [message] = await sql<{ text: string; reply: string | null }[]>`
    select m.text, (select b.text from messages b where b.id = ${botMessageId} and b.user_id = ${job.user_id}) as reply
    from messages m where m.id = ${userMessageId} and m.user_id = ${job.user_id} and m.role = 'USER'`
  // Deleted or edited away since: nothing to learn from it any more.
  if (!message?.text.trim()) return
  const people = job.character_id ? await graphPeople(sql, job.user_id, job.character_id) : []
  const names = people.map((p) => p.name)

  const model = ctx.model.provider
  let changes: ExtractedChanges
  if (model.kind === 'offline') {
    const found = extractByRules(message.text, names)
    changes = { add: found.map((m) => ({ kind: m.kind, text: m.text, label: m.label, person: m.personName })), update: [], outdated: [] }
  } else {
    const related = job.character_id
      ? (await recallMemories(sql, { userId: job.user_id, characterId: job.character_id, text: message.text, budget: 2000 })).memories
      : []
    const latest = await sql<KnownMemory[]>`
      select id, kind, text from memories where user_id = ${job.user_id} order by updated_at desc limit ${KNOWN_FOR_MODEL}`
    const known = new Map<string, KnownMemory>(related.map((m) => [m.id, { id: m.id, kind: m.kind, text: m.text }]))
    for (const m of latest) if (known.size < KNOWN_FOR_MODEL) known.set(m.id, m)
    changes = await model.json<ExtractedChanges>(
      memoryExtractorMessages({ message: message.text, reply: message.reply, known: [...known.values()], people: names }),
      memoryExtractorSchema,
      { signal, temperature: 0 },
    )
    // Only ids the model was shown may be changed, whatever it answers.
    changes = {
      add: changes.add,
      update: changes.update.filter((u) => known.has(u.id)),
      outdated: changes.outdated.filter((id) => known.has(id)),
    }
  }
  if (!changes.add.length && !changes.update.length && !changes.outdated.length) return

  const written = await sql.begin(async (tx) => {
    if (!(await holdsClaim(tx, job))) throw new Error('Another worker took over this job; its result stands')
    // The message may have been deleted while the model thought.
    const [still] = await tx`select 1 from messages where id = ${userMessageId} and user_id = ${job.user_id}`
    if (!still) return null
    return applyChanges(tx, job.user_id, userMessageId, changes)
  })
  // Memories without a vector are still found by their words: an embedding failure does not fail the job.
  if (written && model.embed)
    await embedMemories(sql, model.embed, job.user_id, [...written.added, ...written.updated], signal).catch((error) =>
      console.error('Embedding memories failed; they are found by text search', error),
    )
}
