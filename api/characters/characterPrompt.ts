// A character's system prompt, assembled from everything known about its person and stored on the character.
// The build job writes it first; rebuildCharacterPrompt writes it again whenever one of its inputs changes.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { toLanguage } from '../onboarding/language'
import { storyEntryTexts } from '../onboarding/storyTelling'
import { findTrainingData } from '../onboarding/trainingData'
import {
  assembleCharacterPrompt,
  type CharacterPromptInput,
  type PromptRelation,
  type SpeakingStyle,
} from '../prompts/characterPrompt.v1'
import { questionnaireAnswers } from './questionnaire'

type Db = Sql | TransactionSql<{}>

export type { PromptRelation, SpeakingStyle }

export interface CharacterSource {
  id: string
  user_id: string
  ideal_self_prompt: string | null
  speaking_style: SpeakingStyle | null
  prompt_relations: PromptRelation[] | null
}

export type PromptInputs = Omit<CharacterPromptInput, 'idealSelfPrompt'>

export async function findCharacterSource(sql: Db, characterId: string): Promise<CharacterSource | null> {
  const [row] = await sql<CharacterSource[]>`
    select id, user_id, ideal_self_prompt, speaking_style, prompt_relations from characters where id = ${characterId}`
  return row ?? null
}

/** The character row (of `userId`, when given), locked until the transaction ends; null when there is none. */
export async function lockCharacter(tx: TransactionSql<{}>, characterId: string, userId?: string): Promise<CharacterSource | null> {
  const [row] = await tx<CharacterSource[]>`
    select id, user_id, ideal_self_prompt, speaking_style, prompt_relations from characters
    where id = ${characterId} ${userId ? tx`and user_id = ${userId}` : tx``} for update`
  return row ?? null
}

/** Everything the prompts say about the character's person, as it is now. */
export async function promptInputs(sql: Db, character: CharacterSource): Promise<PromptInputs> {
  const [data, [user], storyEntries, answers] = await Promise.all([
    findTrainingData(sql, character.user_id),
    sql<{ name: string }[]>`select name from users where id = ${character.user_id}`,
    storyEntryTexts(sql, character.user_id),
    questionnaireAnswers(sql, character.id),
  ])
  return {
    userName: data?.user_name || user?.name || '',
    originalDescription: data?.original_ideal_self_description ?? null,
    improvedRoleName: data?.improved_ideal_self_role_name ?? null,
    improvedRoleDescription: data?.improved_ideal_self_role_description ?? null,
    storyEntries,
    questionnaireAnswers: answers,
    relations: character.prompt_relations ?? [],
    speakingStyle: character.speaking_style,
    language: toLanguage(data?.preferred_language),
  }
}

/**
 * Assembles the prompt around `idealSelfPrompt` and stores both on a character locked by the caller. `markReady`
 * (the build job) also opens the chat and names the character after the role the model made.
 */
export async function storePrompt(
  tx: TransactionSql<{}>,
  character: CharacterSource,
  idealSelfPrompt: string,
  { markReady = false } = {},
): Promise<string> {
  const inputs = await promptInputs(tx, character)
  const prompt = assembleCharacterPrompt({ ...inputs, idealSelfPrompt })
  await tx`
    update characters set prompt = ${prompt}, ideal_self_prompt = ${idealSelfPrompt},
      is_ready = is_ready or ${markReady},
      name = case when ${markReady} then coalesce(${inputs.improvedRoleName}, name) else name end,
      updated_at = now()
    where id = ${character.id}`
  return prompt
}

/**
 * The hook for features whose data belongs in the prompt. The relations feature passes the current people
 * (`relations`) whenever the graph is saved; the chat-history import passes the measured `speakingStyle`. Both are
 * kept on the character (characters.prompt_relations, characters.speaking_style), so a rebuild for any other reason
 * (questionnaire answers, a developer's edit) still includes them; omit a field to keep what is stored, pass null
 * to clear it.
 *
 * Re-assembles the prompt when the character has been built, and returns it; returns null when the build job has
 * not written the portrait yet (it will include what was stored here) or the character does not exist. Call it
 * with the pool, never inside another transaction: it opens its own and locks the character row.
 */
export async function rebuildCharacterPrompt(
  sql: Sql,
  characterId: string,
  changes: { relations?: PromptRelation[] | null; speakingStyle?: SpeakingStyle | null } = {},
): Promise<string | null> {
  return sql.begin(async (tx) => {
    const character = await lockCharacter(tx, characterId)
    if (!character) return null
    if (changes.relations !== undefined) {
      character.prompt_relations = changes.relations
      await tx`update characters set prompt_relations = ${changes.relations && tx.json(changes.relations as never)}, updated_at = now() where id = ${characterId}`
    }
    if (changes.speakingStyle !== undefined) {
      character.speaking_style = changes.speakingStyle
      await tx`update characters set speaking_style = ${changes.speakingStyle && tx.json(changes.speakingStyle as never)}, updated_at = now() where id = ${characterId}`
    }
    return character.ideal_self_prompt ? storePrompt(tx, character, character.ideal_self_prompt) : null
  })
}
