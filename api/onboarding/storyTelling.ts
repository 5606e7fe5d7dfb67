// The short story written with the glowing guide (spec §4 "Story telling"): an opening question, one answer and one
// guide line per exchange, and a closing line after the last answer. The model writes first and the exchange is
// stored afterwards in one transaction, so a failed model call leaves no trace of it.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { badRequest, conflict } from '../http/errors'
import type { Language } from '../llm/language'
import { ModelFailure, type ModelProvider } from '../llm/provider'
import { answerCount, storyGuideMessages, type StoryEntryText } from '../prompts/storyGuide.v1'
import { findTrainingData, type TrainingDataRow } from './trainingData'
import { assessMessage } from '../chat/safety/detect'
import { helpLines, storyHelpText } from '../chat/safety/helpLines'

type Db = Sql | TransactionSql<{}>

export interface StoryEntry {
  role: 'GUIDE' | 'USER'
  content: string
  createdAt: string
  /** A guide line that answered a message about suicide or self-harm with help lines. */
  help: boolean
}

export interface StoryTelling {
  entries: StoryEntry[]
  isProcessCompleted: boolean
}

interface StoryEntryRow {
  id: string
  role: 'GUIDE' | 'USER'
  content: string
  created_at: Date
  help: boolean
}

interface StoryState {
  data: TrainingDataRow | null
  rows: StoryEntryRow[]
}

async function readStory(sql: Db, userId: string): Promise<StoryState> {
  const [data, rows] = await Promise.all([
    findTrainingData(sql, userId),
    sql<StoryEntryRow[]>`select id, role, content, created_at, help from story_entries where user_id = ${userId} order by id`,
  ])
  return { data, rows }
}

/** The story entries, oldest first, as the prompts take them. */
export async function storyEntryTexts(sql: Db, userId: string): Promise<StoryEntryText[]> {
  return sql<StoryEntryText[]>`select role, content from story_entries where user_id = ${userId} and not help order by id`
}

const toEntry = (row: StoryEntryRow): StoryEntry => ({
  role: row.role,
  content: row.content,
  createdAt: row.created_at.toISOString(),
  help: row.help,
})

const toStoryTelling = ({ data, rows }: StoryState): StoryTelling => ({
  entries: rows.map(toEntry),
  isProcessCompleted: data?.story_completed ?? false,
})

export async function storyTelling(sql: Sql, userId: string): Promise<StoryTelling> {
  return toStoryTelling(await readStory(sql, userId))
}

export interface StoryStep {
  /** The answer; empty asks for the opening question. */
  text: string
  language: Language
  /** The client asks for the opening question (spec §7 receiveHelloMessage). */
  receiveHelloMessage: boolean
  /** The browser's IANA time zone, for choosing help lines should the answer need them. */
  timeZone?: string
}

export interface StoryDeps {
  sql: Sql
  model: ModelProvider
  /** How many answers make the story (cfg.storyExchanges). */
  exchanges: number
}

/**
 * Moves the story one step: the opening question when nothing was said yet (or the client asks for it), otherwise
 * the answer and the guide's next line, which is the closing one once `exchanges` answers are in. Rejects with
 * ModelFailure when the model fails, having stored nothing.
 */
async function crisisCountry(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql<{ crisis_country: string | null }[]>`select crisis_country from users where id = ${userId}`
  return row?.crisis_country ?? null
}

export async function continueStory(
  deps: StoryDeps,
  userId: string,
  step: StoryStep,
): Promise<StoryTelling & { newEntries: StoryEntry[] }> {
  const state = await readStory(deps.sql, userId)
  const unchanged = () => ({ ...toStoryTelling(state), newEntries: [] })
  const text = step.text.trim()
  const opening = state.rows.length === 0 && (!text || step.receiveHelloMessage)

  if (state.data?.story_completed) {
    if (text && !step.receiveHelloMessage) throw conflict('The story is already complete')
    return unchanged()
  }
  // The opening exists already: a repeated request (a reload, a second tab) gets the story as it is.
  if (step.receiveHelloMessage && !opening) return unchanged()
  if (!opening && !text) throw badRequest('text is required')

  // An answer about suicide or self-harm is met with help first, not the next story question; no model is asked.
  const crisis = !opening && assessMessage(text).level === 'crisis'
  const said: StoryEntryText[] = [...state.rows.filter((r) => !r.help), ...(opening ? [] : [{ role: 'USER' as const, content: text }])]
  const closing = !crisis && answerCount(said) >= deps.exchanges
  const guideLine = crisis
    ? storyHelpText(await helpLines(deps.sql, { country: await crisisCountry(deps.sql, userId), timeZone: step.timeZone, language: step.language }, step.language))
    : (
        await deps.model.complete(
          storyGuideMessages({
            userName: state.data?.user_name ?? null,
            idealSelf: state.data?.improved_ideal_self_role_description ?? state.data?.original_ideal_self_description ?? null,
            entries: said,
            exchanges: deps.exchanges,
            language: step.language,
          }),
        )
      ).trim()
  if (!guideLine) throw new ModelFailure('The model answered only whitespace')

  const lastSeen = state.rows.at(-1)?.id ?? null
  return deps.sql.begin(async (tx) => {
    // The upsert locks the person's row, so concurrent steps of the same story take turns here.
    const [data] = await tx<TrainingDataRow[]>`
      insert into training_data (user_id, preferred_language) values (${userId}, ${step.language})
      on conflict (user_id) do update set preferred_language = excluded.preferred_language, updated_at = now()
      returning *`
    const [{ last }] = await tx<{ last: string | null }[]>`select max(id)::text as last from story_entries where user_id = ${userId}`
    if (last !== lastSeen || data.story_completed) {
      // Two openings requested at once (e.g. a double render) both succeed with the one that was stored first.
      if (opening) return { ...toStoryTelling(await readStory(tx, userId)), newEntries: [] }
      throw conflict('The story changed while you were answering; reload it and answer again')
    }
    const added = [
      ...(opening ? [] : [{ user_id: userId, role: 'USER', content: text, help: false }]),
      { user_id: userId, role: 'GUIDE', content: guideLine, help: crisis },
    ]
    const inserted = await tx<StoryEntryRow[]>`
      insert into story_entries ${tx(added, 'user_id', 'role', 'content', 'help')}
      returning id, role, content, created_at, help`
    inserted.sort((a, b) => Number(a.id) - Number(b.id))
    if (closing) await tx`update training_data set story_completed = true, updated_at = now() where user_id = ${userId}`
    return {
      entries: [...state.rows, ...inserted].map(toEntry),
      newEntries: inserted.map(toEntry),
      isProcessCompleted: closing,
    }
  })
}
