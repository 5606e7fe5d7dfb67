// One chat turn (spec §4 "Chat send"): the person's message, the allowance count and an empty PENDING reply are
// written in one transaction; the model then writes the reply on its own, independent of the HTTP request, and
// either saves it (COMPLETE) or, when the model fails, removes both messages and gives the count back.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { LimitPeriod } from '../config'
import type { FileStorage } from '../files/storage'
import type { ChatImage, ModelProvider } from '../llm/provider'
import { replyLanguage } from '../llm/language'
import { badRequest, HttpError, type ErrorBody } from '../http/errors'
import { isUuid } from '../http/validation'
import { chatScene } from './scene'
import { countMessage, refundMessage, type Counted } from './messageCount'
import { toMessageView, type MessageView } from './conversations'
import { recentHistory, replyMessages, type HistoryMessage, type Scene } from './prompt'
import { replyFeed, type ReplyFeed } from './replyFeed'
import { expressesSelfHarmIntent } from './safety'
import { crisisResourcesText } from './crisisResources'
import { botFailure, REPLY_TIMEOUT_MS } from './botFailure'

export interface ChatDeps {
  sql: Sql
  storage: FileStorage
  provider: ModelProvider
  limitPeriod: LimitPeriod
}

export interface SendRequest {
  userId: string
  conversationId: string
  characterId: string
  text: string
  currentDateTime: string
  fileIds: string[]
  geoLocation?: { latitude: number; longitude: number }
}

export type ReplyOutcome = { ok: true; text: string } | { ok: false; error: ErrorBody }

export interface StartedReply {
  userMessage: MessageView
  /** The PENDING reply, text ''. */
  botMessage: MessageView
  messageLimit: { limit: number; count: number; resetAt: string }
  feed: ReplyFeed
  /** Settles once the reply is saved or rolled back; never rejects. */
  outcome: Promise<ReplyOutcome>
}

/** Enough turns for any history budget; the budget decides how many are actually sent. */
const HISTORY_ROWS = 60

interface Attachment {
  id: string
  mimeType: string
  image: ChatImage
}

/** The caller's own uploaded images, in the order given. */
async function attachments(deps: ChatDeps, userId: string, fileIds: string[]): Promise<Attachment[]> {
  if (!fileIds.length) return []
  if (new Set(fileIds).size !== fileIds.length) throw badRequest('files: the same file is attached twice')
  const refused = badRequest('files: only images you uploaded yourself can be attached')
  if (!fileIds.every(isUuid)) throw refused
  const rows = await deps.sql<{ id: string; storage_key: string; mime_type: string }[]>`
    select id, storage_key, mime_type from files where user_id = ${userId} and id in ${deps.sql(fileIds)}`
  if (rows.length !== fileIds.length || rows.some((r) => !r.mime_type.startsWith('image/'))) throw refused
  return Promise.all(
    fileIds.map(async (id) => {
      const row = rows.find((r) => r.id === id)!
      const data = await deps.storage.get(row.storage_key)
      if (!data) throw badRequest('files: an attached image is no longer stored; upload it again')
      return { id, mimeType: row.mime_type, image: { mimeType: row.mime_type, data } }
    }),
  )
}

async function recentTurns(sql: Sql, userId: string, conversationId: string): Promise<HistoryMessage[]> {
  const newestFirst = await sql<HistoryMessage[]>`
    select role, text from messages
    where conversation_id = ${conversationId} and user_id = ${userId} and status = 'COMPLETE' and text <> ''
    order by created_at desc, id desc limit ${HISTORY_ROWS}`
  return recentHistory(newestFirst)
}

async function limitReached(tx: TransactionSql<{}>, userId: string): Promise<HttpError> {
  const [row] = await tx<{ message_limit: number; message_reset_at: Date }[]>`
    select message_limit, message_reset_at from users where id = ${userId}`
  return new HttpError(
    403,
    'MessageLimitReached',
    `You have used all ${row.message_limit} messages of the free plan for this period. They renew at ${row.message_reset_at.toISOString()}; Premium has no limit.`,
  )
}

export async function sendMessage(deps: ChatDeps, req: SendRequest): Promise<StartedReply> {
  const text = req.text.trim()
  if (!text && !req.fileIds.length) throw badRequest('text: write a message or attach an image')
  const scene = await chatScene(deps.sql, req.userId, req.conversationId, req.characterId)
  const [files, history] = await Promise.all([
    attachments(deps, req.userId, req.fileIds),
    recentTurns(deps.sql, req.userId, req.conversationId),
  ])

  const stored = await deps.sql.begin(async (tx) => {
    const counted = await countMessage(tx, req.userId, deps.limitPeriod)
    if (!counted) throw await limitReached(tx, req.userId)
    const [userRow] = await tx<{ id: string; text: string; role: 'USER'; created_at: Date }[]>`
      insert into messages (conversation_id, user_id, role, text)
      values (${req.conversationId}, ${req.userId}, 'USER', ${text})
      returning id, text, role, created_at`
    if (files.length)
      await tx`insert into message_files ${tx(files.map((f, position) => ({ message_id: userRow.id, file_id: f.id, position })))}`
    // The reply sorts after the question even when both land in the same microsecond (PGlite is that quick),
    // so paging by (created_at, id) never shows it first.
    const [botRow] = await tx<{ id: string; text: string; role: 'ASSISTANT'; created_at: Date }[]>`
      insert into messages (conversation_id, user_id, role, text, status, created_at)
      select ${req.conversationId}, ${req.userId}, 'ASSISTANT', '', 'PENDING',
             greatest(clock_timestamp(), created_at + interval '1 microsecond')
      from messages where id = ${userRow.id}
      returning id, text, role, created_at`
    await tx`
      update conversations set updated_at = now(), character_id = coalesce(character_id, ${req.characterId}::uuid)
      where id = ${req.conversationId} and user_id = ${req.userId}`
    return { counted, userRow, botRow }
  })

  const language = replyLanguage(text, scene.preferredLanguage)
  const prompt: Scene = { ...scene, currentDateTime: req.currentDateTime, language, geoLocation: req.geoLocation }
  const feed = replyFeed()
  const outcome = writeReply(deps, {
    userId: req.userId,
    userMessageId: stored.userRow.id,
    botMessageId: stored.botRow.id,
    counted: stored.counted,
    messages: replyMessages(prompt, history, text, files.map((f) => f.image)),
    crisis: expressesSelfHarmIntent(text) ? () => crisisResourcesText(deps.sql, language) : null,
    feed,
  })
  return {
    userMessage: toMessageView({ ...stored.userRow, files: files.map(({ id, mimeType }) => ({ id, mimeType })) }),
    botMessage: toMessageView(stored.botRow),
    messageLimit: { limit: stored.counted.limit, count: stored.counted.count, resetAt: stored.counted.resetAt.toISOString() },
    feed,
    outcome,
  }
}

interface ReplyJob {
  userId: string
  userMessageId: string
  botMessageId: string
  counted: Counted
  messages: ReturnType<typeof replyMessages>
  /** Set when the person's message speaks of self-harm: the helplines, added whatever the model says. */
  crisis: (() => Promise<string>) | null
  feed: ReplyFeed
}

/** Runs without the request's signal on purpose: a reply that has started is finished even if the client leaves. */
async function writeReply(deps: ChatDeps, job: ReplyJob): Promise<ReplyOutcome> {
  let text = ''
  let failure: HttpError | null = null
  try {
    for await (const delta of deps.provider.streamChat(job.messages, { signal: AbortSignal.timeout(REPLY_TIMEOUT_MS) })) {
      text += delta
      job.feed.push(delta)
    }
  } catch (error) {
    failure = botFailure(error)
  }
  try {
    // A person in crisis gets the helplines even when the model failed, rather than an error dialog.
    if (failure && !job.crisis) {
      await deps.sql.begin(async (tx) => {
        await tx`delete from messages where id in ${tx([job.userMessageId, job.botMessageId])} and user_id = ${job.userId}`
        await refundMessage(tx, job.userId, job.counted)
      })
      return { ok: false, error: failure.toBody() }
    }
    if (job.crisis) {
      const resources = `${text ? '\n\n' : ''}${await job.crisis()}`
      text += resources
      job.feed.push(resources)
    }
    await deps.sql`update messages set text = ${text}, status = 'COMPLETE' where id = ${job.botMessageId} and user_id = ${job.userId}`
    return { ok: true, text }
  } catch (error) {
    // The database failed us; the PENDING reply is left for the stale-reply cleanup.
    console.error('Saving a chat reply failed', error)
    return { ok: false, error: { statusCode: 500, error: 'InternalServerError', message: 'The reply could not be saved' } }
  } finally {
    job.feed.close()
  }
}
