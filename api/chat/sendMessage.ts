// One chat turn (spec §4 "Chat send"): the person's message, the allowance count and an empty PENDING reply are
// written in one transaction; the model then writes the reply on its own, independent of the HTTP request, and
// either saves it (COMPLETE) or, when the model fails, removes both messages and gives the count back.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { LimitPeriod } from '../config'
import type { FileStorage } from '../files/storage'
import type { ChatImage, ModelProvider } from '../llm/provider'
import { replyLanguage } from '../llm/language'
import { badRequest, HttpError } from '../http/errors'
import { isUuid } from '../http/validation'
import { chatScene } from './scene'
import { countMessage, refundMessage, type Counted } from './messageCount'
import { toMessageView, type MessageRowLike, type MessageView } from './conversations'
import type { ReplySources } from '../memory/sources'
import { recentHistory, replyMessages, type HistoryMessage, type Scene } from './prompt'
import { replyFeed, type ReplyFeed } from './replyFeed'
import type { ReplyOutcome, ReplyRelay } from './replyRelay'
import { WRITER_GONE } from './staleReplies'
import { assessTurn, type TurnContext } from './safety/detect'
import type { Assessment } from './safety/types'
import { helpBlock, helpLines } from './safety/helpLines'
import { SUPPORTIVE_REPLY } from './safety/crisisReply'
import { secondOpinion } from './safety/secondOpinion'
import { offlineChunks } from '../llm/offlineProvider'
import { botFailure, REPLY_TIMEOUT_MS } from './botFailure'
import { recallForReply, rememberExchange } from '../memory/chatHooks'

export interface ChatDeps {
  sql: Sql
  storage: FileStorage
  provider: ModelProvider
  limitPeriod: LimitPeriod
  /** Wakes this process's job worker after the memory extraction of an exchange is queued. */
  jobs?: { kick(): void }
  /** Makes each reply readable from every instance while it is written. */
  relay?: ReplyRelay
}

export interface SendRequest {
  userId: string
  conversationId: string
  characterId: string
  text: string
  currentDateTime: string
  fileIds: string[]
  geoLocation?: { latitude: number; longitude: number }
  /** The browser's IANA time zone: where help lines are chosen for, after the person's own country setting. */
  timeZone?: string
}


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

export interface Attachment {
  id: string
  mimeType: string
  image: ChatImage
}

/** The caller's own uploaded images, in the order given. */
export async function attachments(deps: ChatDeps, userId: string, fileIds: string[]): Promise<Attachment[]> {
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

export interface Turns {
  history: HistoryMessage[]
  context: TurnContext
}

/**
 * The conversation so far: as much as fits the prompt's budget (without the help blocks, which the model need
 * not read again), and the last exchange for reading the new message in context.
 */
export async function recentTurns(
  sql: Sql,
  userId: string,
  conversationId: string,
  /** Only what came before this message (a turn tried again). */
  before?: { id: string; created_at: Date },
): Promise<Turns> {
  const newestFirst = await sql<(HistoryMessage & { help: string | null })[]>`
    select role, text, help_text as help from messages
    where conversation_id = ${conversationId} and user_id = ${userId} and status = 'COMPLETE' and text <> ''
      ${before ? sql`and (created_at, id) < (${before.created_at}, ${before.id}::uuid)` : sql``}
    order by created_at desc, id desc limit ${HISTORY_ROWS}`
  const withoutHelp = newestFirst.map(({ role, text, help }) => ({
    role,
    text: help && text.startsWith(help) ? text.slice(help.length).trim() : text,
  }))
  const lastReply = newestFirst[0]?.role === 'ASSISTANT' ? newestFirst[0] : undefined
  const lastUser = newestFirst.find((m) => m.role === 'USER')
  return {
    history: recentHistory(withoutHelp.filter((m) => m.text)),
    context: { previousUserText: lastUser?.text, previousReplyText: lastReply?.text, previousReplyHadHelp: Boolean(lastReply?.help) },
  }
}

export async function limitReached(tx: TransactionSql<{}>, userId: string): Promise<HttpError> {
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
  const [files, turns, place, recall] = await Promise.all([
    attachments(deps, req.userId, req.fileIds),
    recentTurns(deps.sql, req.userId, req.conversationId),
    deps.sql<{ crisis_country: string | null }[]>`select crisis_country from users where id = ${req.userId}`,
    recallForReply(deps.sql, req.userId, req.characterId, text, deps.provider.embed),
  ])
  // Rules first, on this message read with the last exchange; they never wait for a model.
  const risk = text ? assessTurn(text, turns.context) : { level: 'none' as const, categories: [] }

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
    const [botRow] = await tx<{ id: string; text: string; role: 'ASSISTANT'; created_at: Date; sources: ReplySources }[]>`
      insert into messages (conversation_id, user_id, role, text, status, created_at, sources)
      select ${req.conversationId}, ${req.userId}, 'ASSISTANT', '', 'PENDING',
             greatest(clock_timestamp(), created_at + interval '1 microsecond'), ${tx.json(recall.sources as never)}
      from messages where id = ${userRow.id}
      returning id, text, role, created_at, sources`
    await tx`
      update conversations set updated_at = now(), character_id = coalesce(character_id, ${req.characterId}::uuid)
      where id = ${req.conversationId} and user_id = ${req.userId}`
    return { counted, userRow, botRow }
  })

  const started = startReply(deps, {
    userId: req.userId,
    userRow: stored.userRow,
    botRow: stored.botRow,
    counted: stored.counted,
    scene: { ...scene, currentDateTime: req.currentDateTime, geoLocation: req.geoLocation, remembered: recall.remembered },
    text,
    files,
    turns,
    risk,
    crisisCountry: place[0]?.crisis_country,
    timeZone: req.timeZone,
  })
  rememberExchange(deps, { userId: req.userId, characterId: req.characterId, userMessageId: stored.userRow.id, botMessageId: stored.botRow.id }, started.outcome)
  return started
}

/** What a reply to a message is written from: a new message, a regenerated reply or an edited message alike. */
export interface ReplyStart {
  userId: string
  /** The message answered, and the PENDING reply to it, as stored. */
  userRow: MessageRowLike
  botRow: MessageRowLike
  counted: Counted
  /** The scene of the conversation; the reply's language is chosen from the message. */
  scene: Omit<Scene, 'language' | 'crisis'>
  text: string
  files: Attachment[]
  turns: Turns
  risk: Assessment
  crisisCountry?: string | null
  timeZone?: string
  rollback?: ReplyJob['rollback']
}

/** Starts writing the reply (help first when the message calls for it) and makes it readable from every instance. */
export function startReply(deps: ChatDeps, r: ReplyStart): StartedReply {
  const language = replyLanguage(r.text, r.scene.preferredLanguage)
  const prompt: Scene = { ...r.scene, language }
  const feed = replyFeed()
  const outcome = writeReply(deps, {
    userId: r.userId,
    userMessageId: r.userRow.id,
    botMessageId: r.botRow.id,
    counted: r.counted,
    messages: (crisis) => replyMessages({ ...prompt, crisis }, r.turns.history, r.text, r.files.map((f) => f.image)),
    risk: r.risk,
    confirmRisk: () => secondOpinion(deps.provider, r.text, r.turns.context.previousUserText),
    help: async () => helpBlock(await helpLines(deps.sql, { country: r.crisisCountry, timeZone: r.timeZone, language }, language)),
    supportiveReply: SUPPORTIVE_REPLY[language],
    feed,
    rollback: r.rollback,
  })
  deps.relay?.publish(r.botRow.id, feed, outcome)
  return {
    userMessage: toMessageView({ ...r.userRow, files: r.files.map(({ id, mimeType }) => ({ id, mimeType })) }),
    botMessage: toMessageView(r.botRow),
    messageLimit: { limit: r.counted.limit, count: r.counted.count, resetAt: r.counted.resetAt.toISOString() },
    feed,
    outcome,
  }
}

export interface ReplyJob {
  userId: string
  userMessageId: string
  botMessageId: string
  counted: Counted
  messages: (crisis: boolean) => ReturnType<typeof replyMessages>
  /** What the rules made of the message; an uncertain one is put to the model (`confirmRisk`). */
  risk: Assessment
  confirmRisk: () => Promise<boolean>
  /** The help block: warm words, the person's local lines, an invitation to keep talking. */
  help: () => Promise<string>
  supportiveReply: string
  feed: ReplyFeed
  /** Undoes the turn when the model fails; by default both messages are removed. The allowance is refunded either way. */
  rollback?: (tx: TransactionSql<{}>) => Promise<void>
}

/** The fixed supportive reply, fed out word by word like a model's. */
function* fixedReply(text: string): Generator<string> {
  yield* offlineChunks(text)
}

/** Runs without the request's signal on purpose: a reply that has started is finished even if the client leaves. */
export async function writeReply(deps: ChatDeps, job: ReplyJob): Promise<ReplyOutcome> {
  let text = ''
  let help: string | null = null
  let failure: HttpError | null = null
  try {
    const crisis = job.risk.level === 'crisis' || (job.risk.level === 'uncertain' && (await job.confirmRisk()))
    if (crisis) {
      // Help comes first, before any word of the companion's, and whatever the model does next.
      help = await job.help()
      job.feed.help(help)
    }
    // With no model, and for any question about methods, no model is given the moment.
    const fixed = crisis && (deps.provider.kind === 'offline' || job.risk.categories.includes('method_seeking'))
    const deltas = fixed ? fixedReply(job.supportiveReply) : deps.provider.streamChat(job.messages(crisis), { signal: AbortSignal.timeout(REPLY_TIMEOUT_MS) })
    try {
      for await (const delta of deltas) {
        text += delta
        job.feed.push(delta)
      }
    } catch (error) {
      if (!help) throw error
      // A person in crisis is never left with an error: the supportive reply stands in for the model's.
      const rest = `${text ? '\n\n' : ''}${job.supportiveReply}`
      text += rest
      job.feed.push(rest)
    }
  } catch (error) {
    failure = botFailure(error)
  }
  try {
    if (failure) {
      await deps.sql.begin(async (tx) => {
        if (job.rollback) await job.rollback(tx)
        else await tx`delete from messages where id in ${tx([job.userMessageId, job.botMessageId])} and user_id = ${job.userId}`
        await refundMessage(tx, job.userId, job.counted)
      })
      return { ok: false, error: failure.toBody() }
    }
    const full = help ? `${help}\n\n${text}` : text
    const saved = await deps.sql`
      update messages set text = ${full}, help_text = ${help}, status = 'COMPLETE'
      where id = ${job.botMessageId} and user_id = ${job.userId} and status = 'PENDING'
      returning id`
    // Taken for a reply whose writer was gone (stale-reply cleanup on some instance): failed and refunded there.
    if (!saved.length) return { ok: false, error: WRITER_GONE }
    return { ok: true, text: full, help }
  } catch (error) {
    // The database failed us; the PENDING reply is left for the stale-reply cleanup.
    console.error('Saving a chat reply failed', error)
    return { ok: false, error: { statusCode: 500, error: 'InternalServerError', message: 'The reply could not be saved' } }
  } finally {
    job.feed.close()
  }
}
