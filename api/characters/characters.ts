// Characters (spec §3 Character): rows, their public shape with the jobs that build them, and the changes the
// routes make. Every query names the owner in its WHERE, so another user's character is simply not found.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { badRequest, conflict } from '../http/errors'
import { findTrainingData, saveNameAndDescription, type TrainingDataRow } from '../onboarding/trainingData'
import type { JobStatus } from '../jobs/queue'
import { BUILD_CHARACTER, enqueueBuild } from './buildJob'
import { ANALYZE_CHAT_HISTORY } from '../chat-import/analysis/imports'
import { lockCharacter, storePrompt } from './characterPrompt'
import type { CharacterStage, StageCompletion } from './stages'

/** What a character is called until the model has named the role (the chat header says "Ideal Self" anyway). */
export const DEFAULT_CHARACTER_NAME = 'Ideal Self'

interface CharacterRow {
  id: string
  name: string
  is_ready: boolean
  prompt: string | null
  ideal_self_prompt: string | null
  created_at: Date
  updated_at: Date
  jobs: { id: string; kind: string; status: JobStatus; attempts: number; max_attempts: number; last_error: string | null; created_at: string; updated_at: string }[]
  stages: { stage: CharacterStage; completed_at: string }[]
}

export interface CharacterJob {
  id: string
  kind: string
  status: JobStatus
  attempts: number
  maxAttempts: number
  lastError: string | null
  createdAt: string
  updatedAt: string
}

export interface Character {
  id: string
  name: string
  isReady: boolean
  /** Every job that worked on the character, oldest first: builds, and later chat-history analysis. */
  characterGenerationJobs: CharacterJob[]
  stageCompletions: StageCompletion[]
  createdAt: string
  updatedAt: string
  /** Only for ADMIN and DEVELOPER, on request (includePrompt). */
  prompt?: string | null
  idealSelfPrompt?: string | null
}

// JSON timestamps come back as text with an offset; the API speaks ISO in UTC like everywhere else.
const iso = (text: string) => new Date(text).toISOString()

export function toCharacter(row: CharacterRow, includePrompt = false): Character {
  return {
    id: row.id,
    name: row.name,
    isReady: row.is_ready,
    characterGenerationJobs: row.jobs.map((j) => ({
      id: j.id,
      kind: j.kind,
      status: j.status,
      attempts: j.attempts,
      maxAttempts: j.max_attempts,
      lastError: j.last_error,
      createdAt: iso(j.created_at),
      updatedAt: iso(j.updated_at),
    })),
    stageCompletions: row.stages.map((s) => ({ stage: s.stage, completedAt: iso(s.completed_at) })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(includePrompt ? { prompt: row.prompt, idealSelfPrompt: row.ideal_self_prompt } : {}),
  }
}

// The jobs that make the character: its build, and each analysis of imported chats. Other jobs about the character
// (the memories kept after every exchange) are not part of making it and would grow the list with every message.
const GENERATION_JOBS = [BUILD_CHARACTER, ANALYZE_CHAT_HISTORY]

function selectCharacters(sql: Sql, userId: string, characterId: string | null) {
  return sql<CharacterRow[]>`
    select c.id, c.name, c.is_ready, c.prompt, c.ideal_self_prompt, c.created_at, c.updated_at,
      coalesce((select json_agg(j order by j.created_at, j.id) from (
        select id, kind, status, attempts, max_attempts, last_error, created_at, updated_at from jobs
        where character_id = c.id and kind in ${sql(GENERATION_JOBS)}) j), '[]') as jobs,
      coalesce((select json_agg(s order by s.completed_at, s.stage) from (
        select stage, completed_at from character_stage_completions where character_id = c.id) s), '[]') as stages
    from characters c
    where c.user_id = ${userId} ${characterId ? sql`and c.id = ${characterId}` : sql``}
    order by c.created_at, c.id`
}

/** The caller's characters, oldest first (the client uses the last one as Ideal Self, spec §2). */
export async function listCharacters(sql: Sql, userId: string, includePrompt = false): Promise<Character[]> {
  return (await selectCharacters(sql, userId, null)).map((row) => toCharacter(row, includePrompt))
}

export async function findCharacter(sql: Sql, userId: string, characterId: string, includePrompt = false): Promise<Character | null> {
  const [row] = await selectCharacters(sql, userId, characterId)
  return row ? toCharacter(row, includePrompt) : null
}

/** The cheap answer to the 3-second readiness poll (spec §4 Analyzing, selectIsReady=true). */
export async function characterReadiness(sql: Sql, userId: string, characterId: string): Promise<{ id: string; isReady: boolean } | null> {
  const [row] = await sql<{ id: string; is_ready: boolean }[]>`
    select id, is_ready from characters where id = ${characterId} and user_id = ${userId}`
  return row ? { id: row.id, isReady: row.is_ready } : null
}

/** A character for the training data's owner, named after the role when there is one, with its build queued. */
async function insertCharacter(tx: TransactionSql<{}>, data: TrainingDataRow): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into characters (user_id, name) values (${data.user_id}, ${data.improved_ideal_self_role_name ?? DEFAULT_CHARACTER_NAME})
    returning id`
  await enqueueBuild(tx, data.user_id, row.id)
  return row.id
}

/**
 * A new character from the person's name and description (spec §4 Analyzing), which also become their training
 * data, with its build job in the same transaction. The caller kicks the worker afterwards.
 */
export async function createCharacter(sql: Sql, userId: string, userName: string, description: string): Promise<string> {
  return sql.begin(async (tx) => insertCharacter(tx, await saveNameAndDescription(tx, userId, userName, description)))
}

export async function deleteCharacter(sql: Sql, userId: string, characterId: string): Promise<boolean> {
  const rows = await sql`delete from characters where id = ${characterId} and user_id = ${userId} returning id`
  return rows.length > 0
}

/**
 * The developer tool "rebuild characters" (spec §5, §8): every character of the caller is replaced by one fresh
 * character built from their training data. Refused before anything is deleted when there is nothing to rebuild.
 */
export async function rebuildCharacters(sql: Sql, userId: string): Promise<string> {
  return sql.begin(async (tx) => {
    const [{ count }] = await tx<{ count: number }[]>`select count(*)::int as count from characters where user_id = ${userId}`
    if (!count) throw badRequest('No characters to rebuild')
    const data = await findTrainingData(tx, userId)
    if (!data?.original_ideal_self_description) throw badRequest('There is no ideal-self description to rebuild from')
    await tx`delete from characters where user_id = ${userId}`
    return insertCharacter(tx, data)
  })
}

/**
 * Builds the caller's character again, e.g. after its build failed (the failed job stays in the history). Refused
 * while a build is queued or running. False when the character is not theirs.
 */
export async function retryBuild(sql: Sql, userId: string, characterId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    // The lock makes the check and the enqueue one step for two retries at once.
    const [owned] = await tx`select 1 from characters where id = ${characterId} and user_id = ${userId} for update`
    if (!owned) return false
    const [active] = await tx`
      select 1 from jobs where character_id = ${characterId} and kind = ${BUILD_CHARACTER} and status in ('PENDING', 'RUNNING')`
    if (active) throw conflict('The character is already being built')
    await enqueueBuild(tx, userId, characterId)
    return true
  })
}

/**
 * The developer tool's prompt edits (spec §6 Character Dev Tool). A new idealSelfPrompt alone re-assembles the
 * system prompt around it; a prompt sent with it is stored as written. False when the character is not theirs.
 */
export async function editPrompts(
  sql: Sql,
  userId: string,
  characterId: string,
  edit: { prompt?: string; idealSelfPrompt?: string },
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const character = await lockCharacter(tx, characterId, userId)
    if (!character) return false
    if (edit.idealSelfPrompt !== undefined && edit.prompt === undefined) await storePrompt(tx, character, edit.idealSelfPrompt)
    else
      await tx`
        update characters set prompt = ${edit.prompt ?? null}, ideal_self_prompt = coalesce(${edit.idealSelfPrompt ?? null}, ideal_self_prompt),
          updated_at = now()
        where id = ${characterId}`
    return true
  })
}
