// Feedback on a bot reply (spec §7 "Feedback"): only on the caller's own assistant messages.
import type { Sql } from '../db/database'
import { isUuid } from '../http/validation'

export interface Feedback {
  id: string
  messageId: string
  feedbackText: string
  createdAt: string
}

/** Null when the message is not an assistant message of the caller. */
export async function saveFeedback(sql: Sql, userId: string, messageId: string, feedbackText: string): Promise<Feedback | null> {
  if (!isUuid(messageId)) return null
  const [row] = await sql<{ id: string; message_id: string; feedback_text: string; created_at: Date }[]>`
    insert into message_feedbacks (message_id, user_id, feedback_text)
    select id, ${userId}, ${feedbackText} from messages
    where id = ${messageId} and user_id = ${userId} and role = 'ASSISTANT'
    returning id, message_id, feedback_text, created_at`
  return row ? { id: row.id, messageId: row.message_id, feedbackText: row.feedback_text, createdAt: row.created_at.toISOString() } : null
}
