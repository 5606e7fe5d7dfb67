// The character's opening message on an empty conversation (spec §4 "Chat send" step 5). It is saved as the first
// assistant message, once: asking again, or two tabs asking at the same time, returns that same message.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { conflict } from '../http/errors'
import { botFailure, REPLY_TIMEOUT_MS } from './botFailure'
import { chatScene } from './scene'
import { helloMessages } from './prompt'
import type { ChatDeps } from './sendMessage'

export interface HelloMessage {
  id: string
  text: string
  role: 'ASSISTANT'
  createdAt: string
}

type MessageRow = { id: string; text: string; role: 'USER' | 'ASSISTANT'; created_at: Date }

/** The first assistant message, else the first message of any kind, else null (an empty conversation). */
async function opening(sql: Sql | TransactionSql<{}>, userId: string, conversationId: string): Promise<MessageRow | null> {
  const [row] = await sql<MessageRow[]>`
    select id, text, role, created_at from messages
    where conversation_id = ${conversationId} and user_id = ${userId}
    order by role = 'ASSISTANT' desc, created_at, id limit 1`
  return row ?? null
}

function asHello(row: MessageRow): HelloMessage {
  if (row.role !== 'ASSISTANT') throw conflict('The conversation has already started without a hello message')
  return { id: row.id, text: row.text, role: 'ASSISTANT', createdAt: row.created_at.toISOString() }
}

export async function helloMessage(
  deps: ChatDeps,
  req: { userId: string; conversationId: string; characterId: string; currentDateTime: string },
): Promise<HelloMessage> {
  const scene = await chatScene(deps.sql, req.userId, req.conversationId, req.characterId)
  const existing = await opening(deps.sql, req.userId, req.conversationId)
  if (existing) return asHello(existing)

  let text: string
  if (scene.firstMessage) text = scene.firstMessage
  else try {
    const prompt = helloMessages({ ...scene, currentDateTime: req.currentDateTime, language: scene.preferredLanguage })
    text = (await deps.provider.complete(prompt, { signal: AbortSignal.timeout(REPLY_TIMEOUT_MS) })).trim()
    if (!text) throw new Error('The model answered only whitespace')
  } catch (error) {
    throw botFailure(error)
  }

  return deps.sql.begin(async (tx) => {
    // Locking the conversation makes "is it still empty?" and the insert one step for concurrent requests.
    await tx`select 1 from conversations where id = ${req.conversationId} and user_id = ${req.userId} for update`
    const raced = await opening(tx, req.userId, req.conversationId)
    if (raced) return asHello(raced)
    const [row] = await tx<MessageRow[]>`
      insert into messages (conversation_id, user_id, role, text)
      values (${req.conversationId}, ${req.userId}, 'ASSISTANT', ${text})
      returning id, text, role, created_at`
    await tx`
      update conversations set updated_at = now(), character_id = coalesce(character_id, ${req.characterId}::uuid)
      where id = ${req.conversationId} and user_id = ${req.userId}`
    return asHello(row)
  })
}
