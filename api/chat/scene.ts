// Who is talking to whom, checked in one query before anything is stored or sent to a model: the conversation and
// the character both belong to the caller, the character is ready, and the conversation is not another character's.
import type { Sql } from '../db/database'
import { badRequest, conflict, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import type { Language } from '../llm/language'
import { toLanguage } from '../onboarding/language'

export interface ChatScene {
  userId: string
  conversationId: string
  characterId: string
  characterName: string
  characterPrompt: string | null
  /** The opening message a character card brought; the hello uses it instead of asking the model. */
  firstMessage: string | null
  /** From onboarding (training_data); the spec's default story language otherwise. */
  preferredLanguage: Language
}

export async function chatScene(sql: Sql, userId: string, conversationId: string, characterId: string): Promise<ChatScene> {
  if (!isUuid(conversationId)) throw notFound('Conversation not found')
  if (!isUuid(characterId)) throw notFound('Character not found')
  const [row] = await sql<
    { id: string | null; name: string; is_ready: boolean; prompt: string | null; first_message: string | null; bound_to: string | null; preferred_language: string | null }[]
  >`
    select ch.id, ch.name, ch.is_ready, ch.prompt, ch.first_message, conv.character_id as bound_to, td.preferred_language
    from conversations conv
    left join characters ch on ch.id = ${characterId} and ch.user_id = ${userId}
    left join training_data td on td.user_id = ${userId}
    where conv.id = ${conversationId} and conv.user_id = ${userId}`
  if (!row) throw notFound('Conversation not found')
  if (!row.id) throw notFound('Character not found')
  if (row.bound_to && row.bound_to !== characterId) throw badRequest('This conversation belongs to another character')
  if (!row.is_ready) throw conflict('The character is still in training; chat opens once it is ready', 'CharacterNotReady')
  return {
    userId,
    conversationId,
    characterId,
    characterName: row.name,
    characterPrompt: row.prompt,
    firstMessage: row.first_message?.trim() || null,
    preferredLanguage: toLanguage(row.preferred_language),
  }
}
