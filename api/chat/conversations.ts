// Conversations and their messages (spec §3): the queries and the shapes the API answers with. Every read is
// scoped to the owner in its WHERE, so another user's id looks exactly like a missing one.
import type { Sql } from '../db/database'
import { fileUrl } from '../files/uploads'
import { REPLY_TIMEOUT_MS } from './botFailure'
import type { ReplySources } from '../memory/sources'

export interface ConversationRow {
  id: string
  user_id: string
  character_id: string | null
  name: string
  created_at: Date
  updated_at: Date
}

export interface MessageFile {
  id: string
  mimeType: string
  url: string
}

export interface MessageView {
  id: string
  text: string
  role: 'USER' | 'ASSISTANT'
  createdAt: string
  files: MessageFile[]
  /** The help block a crisis reply opens with (its text starts with it); null otherwise. */
  help: string | null
  /** A reply's memories and people (what went into its prompt); null for the person's messages and older replies. */
  sources: ReplySources | null
  /** A reply's version: 1, then one more each time it is regenerated (the earlier ones are kept). */
  version: number
}

export type Direction = 'asc' | 'desc'

/** A minute past the reply timeout: a PENDING reply this old was orphaned by a crash or restart, not still being written. */
const STALE_REPLY_SECONDS = REPLY_TIMEOUT_MS / 1000 + 60

export const toConversation = (row: ConversationRow) => ({
  id: row.id,
  name: row.name,
  characterId: row.character_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

export interface MessageRowLike {
  id: string
  text: string
  role: 'USER' | 'ASSISTANT'
  created_at: Date
  files?: { id: string; mimeType: string }[]
  help_text?: string | null
  sources?: ReplySources | null
  version?: number
}

export function toMessageView(row: MessageRowLike): MessageView {
  return {
    id: row.id,
    text: row.text,
    role: row.role,
    createdAt: row.created_at.toISOString(),
    files: (row.files ?? []).map((f) => ({ id: f.id, mimeType: f.mimeType, url: fileUrl(f.id) })),
    help: row.help_text ?? null,
    sources: row.sources ?? null,
    version: row.version ?? 1,
  }
}

/** Null when `characterId` is given and is not one of the user's characters. */
export async function createConversation(sql: Sql, userId: string, name: string, characterId: string | null): Promise<ConversationRow | null> {
  const [row] = await sql<ConversationRow[]>`
    insert into conversations (user_id, character_id, name)
    select ${userId}, ${characterId}, ${name}
    where ${characterId}::uuid is null
       or exists (select 1 from characters where id = ${characterId}::uuid and user_id = ${userId})
    returning *`
  return row ?? null
}

export function conversationsOf(sql: Sql, userId: string, page: { limit: number; offset: number }): Promise<ConversationRow[]> {
  return sql<ConversationRow[]>`
    select * from conversations where user_id = ${userId} order by created_at desc, id desc
    limit ${page.limit} offset ${page.offset}`
}

export async function ownConversation(sql: Sql, userId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await sql<ConversationRow[]>`select * from conversations where id = ${id} and user_id = ${userId}`
  return row ?? null
}

/** One page of a conversation. Messages written in one transaction share created_at only in theory; id breaks ties. */
export async function messagePage(
  sql: Sql,
  userId: string,
  conversationId: string,
  page: { limit: number; offset: number; direction: Direction },
): Promise<{ messages: MessageView[]; total: number }> {
  const order = page.direction === 'asc' ? sql`m.created_at asc, m.id asc` : sql`m.created_at desc, m.id desc`
  const [rows, [{ total }]] = await Promise.all([
    sql<MessageRowLike[]>`
      select m.id, m.text, m.role, m.created_at, m.help_text, m.sources, m.version,
        (select coalesce(json_agg(json_build_object('id', f.id, 'mimeType', f.mime_type) order by mf.position), '[]')
           from message_files mf join files f on f.id = mf.file_id where mf.message_id = m.id) as files
      from messages m
      where m.conversation_id = ${conversationId} and m.user_id = ${userId}
      order by ${order}
      limit ${page.limit} offset ${page.offset}`,
    sql<{ total: number }[]>`select count(*)::int as total from messages where conversation_id = ${conversationId} and user_id = ${userId}`,
  ])
  return { messages: rows.map(toMessageView), total }
}

export async function ownMessage(sql: Sql, userId: string, conversationId: string, messageId: string) {
  const [row] = await sql<
    { id: string; role: 'USER' | 'ASSISTANT'; text: string; status: 'PENDING' | 'COMPLETE'; help: string | null; sources: ReplySources | null; version: number }[]
  >`
    select id, role, text, status, help_text as help, sources, version from messages
    where id = ${messageId} and conversation_id = ${conversationId} and user_id = ${userId}`
  return row ?? null
}

/** Removes replies that never finished (see STALE_REPLY_SECONDS); returns how many. */
export async function deleteStaleReplies(sql: Sql, userId: string, conversationId: string): Promise<number> {
  const rows = await sql`
    delete from messages
    where conversation_id = ${conversationId} and user_id = ${userId} and role = 'ASSISTANT' and (status = 'PENDING' or text = '')
      and created_at < now() - make_interval(secs => ${STALE_REPLY_SECONDS})
    returning id`
  return rows.length
}

export async function deleteAllMessages(sql: Sql, userId: string, conversationId: string): Promise<number> {
  const rows = await sql`delete from messages where conversation_id = ${conversationId} and user_id = ${userId} returning id`
  return rows.length
}
