// Feedback on a bot reply (spec §7 "Feedback"): only on the caller's own assistant messages.
import type { Sql } from '../db/database'
import { isUuid } from '../http/validation'

export interface Feedback {
  id: string
  messageId: string
  feedbackText: string
  /** The version of the reply the person was reading. */
  version: number
  createdAt: string
}

/** Null when the message is not an assistant message of the caller. */
/** Null when the message is not an assistant message of the caller, or has no such version. Default: the current one. */
export async function saveFeedback(sql: Sql, userId: string, messageId: string, feedbackText: string, version?: number): Promise<Feedback | null> {
  if (!isUuid(messageId)) return null
  const [row] = await sql<{ id: string; message_id: string; feedback_text: string; version: number; created_at: Date }[]>`
    insert into message_feedbacks (message_id, user_id, feedback_text, version)
    select id, ${userId}, ${feedbackText}, coalesce(${version ?? null}::int, version) from messages
    where id = ${messageId} and user_id = ${userId} and role = 'ASSISTANT'
      and (${version ?? null}::int is null or ${version ?? null}::int between 1 and version)
    returning id, message_id, feedback_text, version, created_at`
  return row
    ? { id: row.id, messageId: row.message_id, feedbackText: row.feedback_text, version: row.version, createdAt: row.created_at.toISOString() }
    : null
}
