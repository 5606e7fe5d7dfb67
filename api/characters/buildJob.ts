// The `build-character` job (spec §4 Analyzing, DESIGN §7): improves the description if onboarding did not, has the
// model write the ideal self's portrait, assembles the system prompt and only then marks the character ready.
// The model calls happen outside any transaction; the final write checks that the claim is still this worker's.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { ModelFailure } from '../llm/provider'
import { improveDescription } from '../onboarding/improveDescription'
import { findTrainingData, saveImprovementIfCurrent } from '../onboarding/trainingData'
import { characterBuilderMessages, characterBuilderSchema } from '../prompts/characterBuilder.v1'
import { PermanentJobError, enqueue, holdsClaim } from '../jobs/queue'
import type { JobHandler } from '../jobs/worker'
import { findCharacterSource, lockCharacter, promptInputs, storePrompt } from './characterPrompt'

export const BUILD_CHARACTER = 'build-character'

/** Queues a build in the caller's transaction, so the job exists exactly when its character does. */
export const enqueueBuild = (tx: Sql | TransactionSql<{}>, userId: string, characterId: string) =>
  enqueue(tx, { kind: BUILD_CHARACTER, userId, characterId })

export const buildCharacterJob: JobHandler = async (job, { ctx, signal }) => {
  const { sql } = ctx
  const model = ctx.model.provider
  if (!job.character_id) throw new PermanentJobError('The job names no character')
  const characterId = job.character_id

  const data = await findTrainingData(sql, job.user_id)
  const description = data?.original_ideal_self_description
  if (!data || !description) throw new PermanentJobError('There is no ideal-self description to build the character from')
  if (!data.improved_ideal_self_role_name || !data.improved_ideal_self_role_description) {
    const improved = await improveDescription(
      model,
      { userName: data.user_name, description, preferredLanguage: data.preferred_language },
      signal,
    )
    await saveImprovementIfCurrent(sql, job.user_id, description, improved)
  }

  // Deleted while queued (or by a rebuild): nothing left to build.
  const character = await findCharacterSource(sql, characterId)
  if (!character) return
  const inputs = await promptInputs(sql, character)
  const { persona } = await model.json<{ persona: string }>(
    characterBuilderMessages({ ...inputs, originalDescription: inputs.originalDescription ?? description }),
    characterBuilderSchema,
    { signal },
  )
  const idealSelfPrompt = persona.trim()
  if (!idealSelfPrompt) throw new ModelFailure('The model wrote an empty portrait')

  await sql.begin(async (tx) => {
    // Character first, then the job: the order a character deletion takes them (jobs cascade from characters).
    const locked = await lockCharacter(tx, characterId)
    if (!locked) return
    if (!(await holdsClaim(tx, job))) throw new Error('Another worker took over this job; its result stands')
    await storePrompt(tx, locked, idealSelfPrompt, { markReady: true })
  })
}
