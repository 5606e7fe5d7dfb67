// The questionnaire of a character (spec §3 Character.questionnaire, §7 GET/PATCH questionnaire): a versioned set
// of questions about how the ideal self should be, created on first read in the person's language. Answers feed
// the character prompt.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { badRequest } from '../http/errors'
import type { Language } from '../llm/language'
import { toLanguage } from '../onboarding/language'
import type { QuestionnaireAnswer } from '../prompts/characterPrompt.v1'

type Db = Sql | TransactionSql<{}>

export const QUESTIONNAIRE_VERSION = 1
const TEXT_MAX = 1000

export type Question =
  | { id: string; type: 'text'; text: string; maxLength: number }
  | { id: string; type: 'scale'; text: string; min: number; max: number; minLabel: string; maxLabel: string }

export type Answers = Record<string, string | number>

export interface Questionnaire {
  id: string
  version: number
  questions: Question[]
  answers: Answers
}

interface QuestionnaireRow {
  id: string
  character_id: string
  version: number
  questions: Question[]
  answers: Answers
}

type Wording = { text: string; minLabel?: string; maxLabel?: string }

const QUESTIONS_V1 = [
  { id: 'focus', type: 'text' },
  { id: 'directness', type: 'scale' },
  { id: 'energy', type: 'text' },
  { id: 'push', type: 'scale' },
  { id: 'avoid', type: 'text' },
] as const

const WORDING_V1: Record<Language, Record<(typeof QUESTIONS_V1)[number]['id'], Wording>> = {
  'en-US': {
    focus: { text: 'What do you most want your ideal self to help you with right now?' },
    directness: { text: 'How direct should your ideal self be with you?', minLabel: 'Gentle', maxLabel: 'Straight to the point' },
    energy: { text: 'What gives you energy when things get hard?' },
    push: { text: 'When you are struggling, do you want comfort or a push?', minLabel: 'Comfort me', maxLabel: 'Push me' },
    avoid: { text: 'Is there anything your ideal self should never say or do?' },
  },
  'zh-TW': {
    focus: { text: '現在你最希望理想中的自己幫你什麼？' },
    directness: { text: '你希望理想中的自己對你說話有多直接？', minLabel: '溫柔委婉', maxLabel: '直截了當' },
    energy: { text: '遇到困難時，什麼能讓你重新充電？' },
    push: { text: '當你陷入低潮時，你希望被安慰還是被推一把？', minLabel: '安慰我', maxLabel: '推我一把' },
    avoid: { text: '有什麼話或做法是理想中的自己絕對不該說或做的？' },
  },
  'zh-CN': {
    focus: { text: '现在你最希望理想中的自己帮你什么？' },
    directness: { text: '你希望理想中的自己对你说话有多直接？', minLabel: '温柔委婉', maxLabel: '直截了当' },
    energy: { text: '遇到困难时，什么能让你重新充电？' },
    push: { text: '当你陷入低潮时，你希望被安慰还是被推一把？', minLabel: '安慰我', maxLabel: '推我一把' },
    avoid: { text: '有什么话或做法是理想中的自己绝对不该说或做的？' },
  },
}

/** The current questions, worded in `language`; stored with the questionnaire so a later rewording changes nothing. */
export function defaultQuestions(language: Language): Question[] {
  const wording = WORDING_V1[language]
  return QUESTIONS_V1.map(({ id, type }): Question => {
    const { text, minLabel = '', maxLabel = '' } = wording[id]
    return type === 'text' ? { id, type, text, maxLength: TEXT_MAX } : { id, type, text, min: 1, max: 5, minLabel, maxLabel }
  })
}

const toQuestionnaire = (row: QuestionnaireRow): Questionnaire => ({
  id: row.id,
  version: row.version,
  questions: row.questions,
  answers: row.answers,
})

/** The caller's character's questionnaire, created on first read; null when the character is not theirs. */
export async function questionnaireFor(sql: Sql, userId: string, characterId: string): Promise<Questionnaire | null> {
  const [owner] = await sql<{ preferred_language: string | null }[]>`
    select td.preferred_language from characters c left join training_data td on td.user_id = c.user_id
    where c.id = ${characterId} and c.user_id = ${userId}`
  if (!owner) return null
  const questions = defaultQuestions(toLanguage(owner.preferred_language))
  await sql`
    insert into character_questionnaires (character_id, version, questions)
    select c.id, ${QUESTIONNAIRE_VERSION}::int, ${sql.json(questions as never)}::jsonb from characters c
    where c.id = ${characterId} and c.user_id = ${userId}
    on conflict (character_id, version) do nothing`
  const [row] = await sql<QuestionnaireRow[]>`
    select q.* from character_questionnaires q join characters c on c.id = q.character_id
    where q.character_id = ${characterId} and c.user_id = ${userId} and q.version = ${QUESTIONNAIRE_VERSION}`
  return row ? toQuestionnaire(row) : null
}

/**
 * `sent` checked against the questions and merged into `current`: text up to the question's length (empty clears
 * the answer), scales as whole numbers in range. Anything else is refused with a 400 naming the question.
 */
export function mergeAnswers(questions: Question[], current: Answers, sent: Record<string, unknown>): Answers {
  const merged: Answers = { ...current }
  for (const [id, value] of Object.entries(sent)) {
    const question = questions.find((q) => q.id === id)
    if (!question) throw badRequest(`answers.${id}: there is no such question`)
    if (question.type === 'text') {
      if (typeof value !== 'string') throw badRequest(`answers.${id}: must be text`)
      const text = value.trim()
      if (Array.from(text).length > question.maxLength) throw badRequest(`answers.${id}: must be at most ${question.maxLength} characters`)
      if (text) merged[id] = text
      else delete merged[id]
    } else {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < question.min || value > question.max)
        throw badRequest(`answers.${id}: must be a whole number from ${question.min} to ${question.max}`)
      merged[id] = value
    }
  }
  return merged
}

/**
 * Saves answers to the caller's questionnaire. The character row is locked first, as the build job locks it before
 * reading answers: either the build sees these answers, or `characterReady` is true and the caller re-assembles.
 */
export async function saveAnswers(
  sql: Sql,
  userId: string,
  characterId: string,
  questionnaireId: string,
  sent: Record<string, unknown>,
): Promise<{ questionnaire: Questionnaire; characterReady: boolean } | null> {
  return sql.begin(async (tx) => {
    const [character] = await tx<{ is_ready: boolean }[]>`
      select is_ready from characters where id = ${characterId} and user_id = ${userId} for update`
    if (!character) return null
    const [row] = await tx<QuestionnaireRow[]>`
      select * from character_questionnaires where id = ${questionnaireId} and character_id = ${characterId}`
    if (!row) return null
    const answers = mergeAnswers(row.questions, row.answers, sent)
    const [saved] = await tx<QuestionnaireRow[]>`
      update character_questionnaires set answers = ${tx.json(answers)}, updated_at = now()
      where id = ${questionnaireId} returning *`
    return { questionnaire: toQuestionnaire(saved), characterReady: character.is_ready }
  })
}

/** The answered questions of the character's newest questionnaire, worded for a prompt. */
export async function questionnaireAnswers(sql: Db, characterId: string): Promise<QuestionnaireAnswer[]> {
  const [row] = await sql<QuestionnaireRow[]>`
    select * from character_questionnaires where character_id = ${characterId} order by version desc limit 1`
  if (!row) return []
  return row.questions.flatMap((q): QuestionnaireAnswer[] => {
    const value = row.answers[q.id]
    if (value === undefined) return []
    const answer = q.type === 'scale' ? `${value}/${q.max} (${q.min} ${q.minLabel} … ${q.max} ${q.maxLabel})` : String(value)
    return [{ question: q.text, answer }]
  })
}
