// The training_data row (spec §3 Training data): the name and ideal-self description onboarding collects, one row
// per user, created on first write.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { ImprovedDescription } from '../prompts/improveDescription.v1'

type Db = Sql | TransactionSql<{}>

export interface TrainingDataRow {
  user_id: string
  user_name: string | null
  original_ideal_self_description: string | null
  improved_ideal_self_role_name: string | null
  improved_ideal_self_role_description: string | null
  preferred_language: string
  story_completed: boolean
  updated_at: Date
}

export interface TrainingData {
  userName: string | null
  originalIdealSelfDescription: string | null
  improvedIdealSelfRoleName: string | null
  improvedIdealSelfRoleDescription: string | null
}

export function toTrainingData(row: TrainingDataRow | null): TrainingData {
  return {
    userName: row?.user_name ?? null,
    originalIdealSelfDescription: row?.original_ideal_self_description ?? null,
    improvedIdealSelfRoleName: row?.improved_ideal_self_role_name ?? null,
    improvedIdealSelfRoleDescription: row?.improved_ideal_self_role_description ?? null,
  }
}

export async function findTrainingData(sql: Db, userId: string): Promise<TrainingDataRow | null> {
  const [row] = await sql<TrainingDataRow[]>`select * from training_data where user_id = ${userId}`
  return row ?? null
}

export async function saveUserName(sql: Db, userId: string, userName: string): Promise<TrainingDataRow> {
  const [row] = await sql<TrainingDataRow[]>`
    insert into training_data (user_id, user_name) values (${userId}, ${userName})
    on conflict (user_id) do update set user_name = excluded.user_name, updated_at = now()
    returning *`
  return row
}

/** The person's description together with the role the model made of it. */
export async function saveImprovedDescription(
  sql: Db,
  userId: string,
  original: string,
  improved: ImprovedDescription,
): Promise<TrainingDataRow> {
  const [row] = await sql<TrainingDataRow[]>`
    insert into training_data (user_id, original_ideal_self_description, improved_ideal_self_role_name,
                               improved_ideal_self_role_description)
    values (${userId}, ${original}, ${improved.roleName}, ${improved.roleDescription})
    on conflict (user_id) do update set
      original_ideal_self_description = excluded.original_ideal_self_description,
      improved_ideal_self_role_name = excluded.improved_ideal_self_role_name,
      improved_ideal_self_role_description = excluded.improved_ideal_self_role_description,
      updated_at = now()
    returning *`
  return row
}

/**
 * Stores an improvement made in the background, unless the person has changed their description meanwhile (the
 * role would describe words they took back). Returns the row when it was stored.
 */
export async function saveImprovementIfCurrent(
  sql: Db,
  userId: string,
  original: string,
  improved: ImprovedDescription,
): Promise<TrainingDataRow | null> {
  const [row] = await sql<TrainingDataRow[]>`
    update training_data set improved_ideal_self_role_name = ${improved.roleName},
      improved_ideal_self_role_description = ${improved.roleDescription}, updated_at = now()
    where user_id = ${userId} and original_ideal_self_description = ${original}
    returning *`
  return row ?? null
}

/**
 * The name and description a character is created from (spec §4 Analyzing). A description that differs from the
 * stored one drops the old improvement, so the build job improves the new words instead.
 */
export async function saveNameAndDescription(sql: Db, userId: string, userName: string, description: string): Promise<TrainingDataRow> {
  const [row] = await sql<TrainingDataRow[]>`
    insert into training_data (user_id, user_name, original_ideal_self_description)
    values (${userId}, ${userName}, ${description})
    on conflict (user_id) do update set
      user_name = excluded.user_name,
      improved_ideal_self_role_name = case
        when training_data.original_ideal_self_description = excluded.original_ideal_self_description
        then training_data.improved_ideal_self_role_name end,
      improved_ideal_self_role_description = case
        when training_data.original_ideal_self_description = excluded.original_ideal_self_description
        then training_data.improved_ideal_self_role_description end,
      original_ideal_self_description = excluded.original_ideal_self_description,
      updated_at = now()
    returning *`
  return row
}

/** The training data and the story told with it (spec §7 DELETE /chatbots/training-data); characters stay. */
export async function deleteTrainingData(sql: Sql, userId: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`delete from story_entries where user_id = ${userId}`
    await tx`delete from training_data where user_id = ${userId}`
  })
}
