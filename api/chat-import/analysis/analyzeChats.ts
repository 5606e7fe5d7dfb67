// The analysis of one import: the user's speaking style and the people they talk with, measured in code; a
// model, when one is configured, words the style summary and proposes relationship types. A model that fails
// leaves the code's own summary and type cues in place, so an import never fails for want of a model.
import type { ChatMessage } from '../types'
import { ModelFailure, type ModelProvider } from '../../llm/provider'
import { RELATIONSHIP_TYPES } from '../../content/definitions'
import { describeStyle, measureSpeakingStyle, type StyleProfile } from './speakingStyle'
import { extractPeople, type Person } from './people'
import { proposeRelationshipType, type RelationshipType } from './relationshipCues'
import { peopleTypesMessages, peopleTypesSchema, styleSummaryMessages, styleSummarySchema, SUMMARY_MAX } from './prompts.v1'

export type Source = 'model' | 'code'

export interface AnalyzedStyle extends StyleProfile {
  summary: string
  summarySource: Source
}

export interface ProposedPerson extends Person {
  types: RelationshipType[]
  typesSource: Source
}

export interface ChatAnalysis {
  style: AnalyzedStyle
  people: ProposedPerson[]
}

const MAX_TYPES = 2

/** Runs `call` on a real model; null without one or when it fails (an abort is passed on, it ends the job). */
async function withModel<T>(model: ModelProvider, call: () => Promise<T>): Promise<T | null> {
  if (model.kind === 'offline') return null
  try {
    return await call()
  } catch (error) {
    if (error instanceof ModelFailure) return null
    throw error
  }
}

function knownTypes(types: unknown): RelationshipType[] {
  if (!Array.isArray(types)) return []
  const known = types.filter((t): t is RelationshipType => (RELATIONSHIP_TYPES as readonly unknown[]).includes(t))
  return [...new Set(known)].slice(0, MAX_TYPES)
}

/** What code measures of an import: the person's style and the people they talk with. Pure; heavy for large exports. */
export interface MeasuredChats {
  profile: StyleProfile
  people: Person[]
}

/** `earlier`: the person's own messages from earlier imports (one chat), so the style is measured on all of them. */
export function measureChats(chats: ChatMessage[][], userName: string, earlier: ChatMessage[] = []): MeasuredChats {
  return {
    profile: measureSpeakingStyle(earlier.length ? [...chats, earlier] : chats, userName),
    people: extractPeople(chats, userName),
  }
}

/** The measured style and people, worded and typed by the model when there is one, else by code. */
export async function analyzeChats(
  model: ModelProvider, { profile, people }: MeasuredChats, userName: string, signal: AbortSignal,
): Promise<ChatAnalysis> {
  const written =
    profile.measuredMessages > 0
      ? await withModel(model, () => model.json<{ summary: string }>(styleSummaryMessages(profile), styleSummarySchema, { signal }))
      : null
  const modelSummary = written?.summary.trim().slice(0, SUMMARY_MAX)

  const proposed =
    people.length > 0
      ? await withModel(model, () =>
          model.json<{ people: { name: string; types: string[] }[] }>(peopleTypesMessages(userName, people), peopleTypesSchema, { signal }),
        )
      : null
  const modelTypes = new Map(proposed?.people.map((p) => [p.name, knownTypes(p.types)]))

  return {
    style: { ...profile, summary: modelSummary || describeStyle(profile), summarySource: modelSummary ? 'model' : 'code' },
    people: people.map((person) => {
      const types = modelTypes.get(person.name)
      return types?.length
        ? { ...person, types, typesSource: 'model' }
        : { ...person, types: [proposeRelationshipType(person.name, person.texts)], typesSource: 'code' }
    }),
  }
}
