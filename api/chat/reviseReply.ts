// A second try at the last turn: regenerate the last reply (the earlier versions are kept and can be browsed), or
// edit the person's last message and resend it (the old reply is replaced). Either counts against the free
// allowance like a new message, in the same transaction that resets the reply, and when the model fails the turn
// is put back exactly as it was and the count given back.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { badRequest, conflict } from '../http/errors'
import { recallForReply, rememberExchange } from '../memory/chatHooks'
import type { ReplySources } from '../memory/sources'
import { countMessage } from './messageCount'
import { chatScene } from './scene'
import { markWriting } from './staleReplies'
import { assessTurn } from './safety/detect'
import { attachments, limitReached, recentTurns, startReply, type ChatDeps, type StartedReply } from './sendMessage'

export interface ReviseRequest {
  userId: string
  conversationId: string
  characterId: string
  currentDateTime: string
  /** The browser's IANA time zone, for help lines (as in sendMessage). */
  timeZone?: string
}

interface TurnRow {
  id: string
  role: 'USER' | 'ASSISTANT'
  text: string
  status: 'PENDING' | 'COMPLETE'
  sources: ReplySources | null
  version: number
  help_text: string | null
  created_at: Date
}

/** The conversation's last question and its reply, locked; a 409 unless the reply is finished. */
async function lastTurn(tx: TransactionSql<{}>, userId: string, conversationId: string): Promise<{ question: TurnRow; reply: TurnRow }> {
  const rows = await tx<TurnRow[]>`
    select id, role, text, status, sources, version, help_text, created_at from messages
    where conversation_id = ${conversationId} and user_id = ${userId}
    order by created_at desc, id desc limit 2 for update`
  const [reply, question] = rows
  if (!reply || !question || reply.role !== 'ASSISTANT' || question.role !== 'USER')
    throw conflict('There is no reply to your last message to try again', 'NothingToRevise')
  if (reply.status !== 'COMPLETE') throw conflict('The reply is still being written', 'ReplyInProgress')
  return { question, reply }
}

async function imagesOf(deps: ChatDeps, userId: string, messageId: string) {
  const rows = await deps.sql<{ file_id: string }[]>`
    select file_id from message_files where message_id = ${messageId} order by position`
  return attachments(deps, userId, rows.map((r) => r.file_id))
}

/**
 * Starts the new reply. `change` runs in the transaction that counts the message, after the turn is locked; it
 * resets the reply row and returns how to undo itself.
 */
async function revise(
  deps: ChatDeps,
  req: ReviseRequest,
  newText: string | null,
  change: (tx: TransactionSql<{}>, turn: { question: TurnRow; reply: TurnRow }, sources: ReplySources) => Promise<(tx: TransactionSql<{}>) => Promise<void>>,
): Promise<StartedReply> {
  const scene = await chatScene(deps.sql, req.userId, req.conversationId, req.characterId)
  // Read outside the counting transaction (PGlite: no pool query while one is open); checked again inside it.
  const [peek] = await deps.sql<TurnRow[]>`
    select id, role, text, status, sources, version, help_text, created_at from messages
    where conversation_id = ${req.conversationId} and user_id = ${req.userId} and role = 'USER'
    order by created_at desc, id desc limit 1`
  if (!peek) throw conflict('There is no reply to your last message to try again', 'NothingToRevise')
  const text = newText ?? peek.text
  const [files, turns, place, recall] = await Promise.all([
    imagesOf(deps, req.userId, peek.id),
    recentTurns(deps.sql, req.userId, req.conversationId, peek),
    deps.sql<{ crisis_country: string | null }[]>`select crisis_country from users where id = ${req.userId}`,
    recallForReply(deps.sql, req.userId, req.characterId, text, deps.provider.embed),
  ])
  // The same safety reading as a new message: the help block comes first whenever the message calls for it.
  const risk = assessTurn(text, turns.context)

  const stored = await deps.sql.begin(async (tx) => {
    const turn = await lastTurn(tx, req.userId, req.conversationId)
    if (turn.question.id !== peek.id) throw conflict('The conversation changed; reload it and try again', 'ReplyInProgress')
    const counted = await countMessage(tx, req.userId, deps.limitPeriod)
    if (!counted) throw await limitReached(tx, req.userId)
    const rollback = await change(tx, turn, recall.sources)
    await markWriting(tx, turn.reply.id)
    const [question] = await tx<TurnRow[]>`select id, role, text, status, sources, version, help_text, created_at from messages where id = ${turn.question.id}`
    const [reply] = await tx<TurnRow[]>`select id, role, text, status, sources, version, help_text, created_at from messages where id = ${turn.reply.id}`
    await tx`update conversations set updated_at = now() where id = ${req.conversationId} and user_id = ${req.userId}`
    return { counted, question, reply, rollback }
  })

  const started = startReply(deps, {
    userId: req.userId,
    userRow: stored.question,
    botRow: stored.reply,
    counted: stored.counted,
    scene: { ...scene, currentDateTime: req.currentDateTime, remembered: recall.remembered },
    text,
    files,
    turns,
    risk,
    crisisCountry: place[0]?.crisis_country,
    timeZone: req.timeZone,
    rollback: stored.rollback,
  })
  if (newText !== null)
    rememberExchange(deps, { userId: req.userId, characterId: req.characterId, userMessageId: stored.question.id, botMessageId: stored.reply.id }, started.outcome)
  return started
}

/** A new version of the last reply; the current one joins the earlier versions. */
export function regenerateReply(deps: ChatDeps, req: ReviseRequest): Promise<StartedReply> {
  return revise(deps, req, null, async (tx, { reply }, sources) => {
    await tx`
      insert into message_versions (message_id, version, text, help_text, sources, created_at)
      values (${reply.id}, ${reply.version}, ${reply.text}, ${reply.help_text}, ${reply.sources && tx.json(reply.sources as never)}, ${reply.created_at})`
    await tx`
      update messages set text = '', status = 'PENDING', version = ${reply.version + 1}, sources = ${tx.json(sources as never)}
      where id = ${reply.id}`
    return async (undo) => {
      await undo`
        update messages set text = ${reply.text}, help_text = ${reply.help_text}, status = 'COMPLETE', version = ${reply.version},
          sources = ${reply.sources && undo.json(reply.sources as never)}
        where id = ${reply.id} and user_id = ${req.userId}`
      await undo`delete from message_versions where message_id = ${reply.id} and version = ${reply.version}`
    }
  })
}

/** The person's last message with new text, and a new reply in place of the old one (its versions and feedback go). */
export async function editAndResend(deps: ChatDeps, req: ReviseRequest & { text: string; messageId: string }): Promise<StartedReply> {
  const text = req.text.trim()
  if (!text) throw badRequest('text: write a message')
  return revise(deps, req, text, async (tx, { question, reply }, sources) => {
    if (question.id !== req.messageId) throw conflict('Only your last message can be edited', 'NotLastMessage')
    const versions = await tx<{ version: number; text: string; help_text: string | null; sources: ReplySources | null; created_at: Date }[]>`
      delete from message_versions where message_id = ${reply.id} returning version, text, help_text, sources, created_at`
    const feedbacks = await tx<{ id: string; user_id: string; feedback_text: string; version: number; created_at: Date }[]>`
      delete from message_feedbacks where message_id = ${reply.id} returning id, user_id, feedback_text, version, created_at`
    await tx`update messages set text = ${text} where id = ${question.id}`
    await tx`
      update messages set text = '', status = 'PENDING', version = 1, sources = ${tx.json(sources as never)}
      where id = ${reply.id}`
    return async (undo) => {
      await undo`update messages set text = ${question.text} where id = ${question.id} and user_id = ${req.userId}`
      await undo`
        update messages set text = ${reply.text}, help_text = ${reply.help_text}, status = 'COMPLETE', version = ${reply.version},
          sources = ${reply.sources && undo.json(reply.sources as never)}
        where id = ${reply.id} and user_id = ${req.userId}`
      if (versions.length)
        await undo`insert into message_versions ${undo(versions.map((v) => ({ message_id: reply.id, version: v.version, text: v.text, help_text: v.help_text, sources: v.sources && undo.json(v.sources as never), created_at: v.created_at })))}`
      if (feedbacks.length)
        await undo`insert into message_feedbacks ${undo(feedbacks.map((f) => ({ id: f.id, message_id: reply.id, user_id: f.user_id, feedback_text: f.feedback_text, version: f.version, created_at: f.created_at })))}`
    }
  })
}

export interface ReplyVersion {
  version: number
  text: string
  /** The help block the version opened with (its text starts with it), or null. */
  help: string | null
  sources: ReplySources | null
  createdAt: string
  current: boolean
}

/** Every version of one of the caller's replies, oldest first; null when it is not theirs. */
export async function replyVersions(sql: Sql, userId: string, conversationId: string, messageId: string): Promise<ReplyVersion[] | null> {
  const [current] = await sql<{ text: string; help_text: string | null; sources: ReplySources | null; version: number; created_at: Date }[]>`
    select text, help_text, sources, version, created_at from messages
    where id = ${messageId} and conversation_id = ${conversationId} and user_id = ${userId} and role = 'ASSISTANT'`
  if (!current) return null
  const earlier = await sql<{ version: number; text: string; help_text: string | null; sources: ReplySources | null; created_at: Date }[]>`
    select version, text, help_text, sources, created_at from message_versions where message_id = ${messageId} order by version`
  return [
    ...earlier.map((v) => ({ version: v.version, text: v.text, help: v.help_text, sources: v.sources, createdAt: v.created_at.toISOString(), current: false })),
    { version: current.version, text: current.text, help: current.help_text, sources: current.sources, createdAt: current.created_at.toISOString(), current: true },
  ]
}
