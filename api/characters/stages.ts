// Stages of a character's setup the person has finished (spec §7 stage-completions; CONFIRM_RELATIONS is set when
// the relationship graph is saved, spec §4 "Relationship graph").
import type { Sql } from '../db/database'

export const CHARACTER_STAGES = ['CONFIRM_RELATIONS', 'UPLOAD_CHAT_HISTORY', 'COMPLETE_QUESTIONNAIRE'] as const
export type CharacterStage = (typeof CHARACTER_STAGES)[number]

export interface StageCompletion {
  stage: CharacterStage
  completedAt: string
}

/**
 * Marks `stage` complete on the caller's character; doing it again keeps the first time. Returns every completed
 * stage, or null when the character is not theirs.
 */
export async function completeStage(sql: Sql, userId: string, characterId: string, stage: CharacterStage): Promise<StageCompletion[] | null> {
  const [owned] = await sql`select 1 from characters where id = ${characterId} and user_id = ${userId}`
  if (!owned) return null
  await sql`
    insert into character_stage_completions (character_id, stage)
    select id, ${stage} from characters where id = ${characterId} and user_id = ${userId}
    on conflict (character_id, stage) do nothing`
  const rows = await sql<{ stage: CharacterStage; completed_at: Date }[]>`
    select stage, completed_at from character_stage_completions where character_id = ${characterId}
    order by completed_at, stage`
  return rows.map((r) => ({ stage: r.stage, completedAt: r.completed_at.toISOString() }))
}
