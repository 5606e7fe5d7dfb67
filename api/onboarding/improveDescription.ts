// The model's reading of "who I want to become" as a role (spec §7 improved-ideal-self-description), used by the
// onboarding step and by the build job when the step was skipped.
import { replyLanguage } from '../llm/language'
import { ModelFailure, type ModelProvider } from '../llm/provider'
import {
  ROLE_DESCRIPTION_MAX,
  ROLE_NAME_MAX,
  improveDescriptionMessages,
  improvedDescriptionSchema,
  type ImprovedDescription,
} from '../prompts/improveDescription.v1'
import { toLanguage } from './language'

const clip = (text: string, max: number) => Array.from(text.trim()).slice(0, max).join('').trim()

/** "A calm designer who speaks up in meetings" → "A calm designer"; "一個冷靜的設計師，能在會議中發言" → "一個冷靜的設計師". */
export function openingPhrase(description: string): string {
  const text = description.trim()
  const cut = text.search(/\s+(?:who|that|which|and)\s|[,.;:!?，。；：！？、\n]/i)
  return cut > 0 ? text.slice(0, cut).trim() : text
}

/**
 * The role in the language the description is written in (an English description in a zh-TW browser gets an English
 * role); `preferredLanguage` decides only when the text does not tell. Rejects with ModelFailure.
 */
export async function improveDescription(
  model: ModelProvider,
  input: { userName: string | null; description: string; preferredLanguage: string | null },
  signal?: AbortSignal,
): Promise<ImprovedDescription> {
  // Without a model the person's own words are the best description there is; the role is its opening phrase.
  if (model.kind === 'offline') return { roleName: clip(openingPhrase(input.description), ROLE_NAME_MAX), roleDescription: clip(input.description, ROLE_DESCRIPTION_MAX) }
  const language = replyLanguage(input.description, toLanguage(input.preferredLanguage))
  const reply = await model.json<ImprovedDescription>(
    improveDescriptionMessages({ userName: input.userName, description: input.description, language }),
    improvedDescriptionSchema,
    { signal },
  )
  // The schema's lengths guide the model; they are enforced here because no backend guarantees them.
  const improved = { roleName: clip(reply.roleName, ROLE_NAME_MAX), roleDescription: clip(reply.roleDescription, ROLE_DESCRIPTION_MAX) }
  if (!improved.roleName || !improved.roleDescription) throw new ModelFailure('The model returned an empty role')
  return improved
}
