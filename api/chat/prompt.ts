// What the model is sent for a chat reply or a hello: the character's system prompt, the person's local time, the
// language to answer in, and as much recent conversation as fits the budget.
import type { ChatImage, ChatMessage } from '../llm/provider'
import type { Language } from '../llm/language'
import { formatPersonContext } from '../llm/personContext'
import { CRISIS_INSTRUCTION } from './safety/crisisReply'

export interface HistoryMessage {
  role: 'USER' | 'ASSISTANT'
  text: string
}

export interface Scene {
  characterName: string
  /** characters.prompt; null while a character has none (an older or hand-made row). */
  characterPrompt: string | null
  currentDateTime: string
  language: Language
  geoLocation?: { latitude: number; longitude: number }
  /** The latest message speaks of suicide or self-harm: the reply follows the safety instruction. */
  crisis?: boolean
  /** Memories recalled for this message (api/memory/recall.ts), best first. */
  remembered?: string[]
}

/** About 4k tokens of context even on small local models, leaving room for the system prompt and the answer. */
const HISTORY_TOKEN_BUDGET = 2500

const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English',
  'zh-TW': 'Traditional Chinese (繁體中文, Taiwan)',
  'zh-CN': 'Simplified Chinese (简体中文)',
}

/** A rough token count: a Chinese character is about one token, other text about four characters per token. */
export function estimateTokens(text: string): number {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0
  return han + Math.ceil((text.length - han) / 4)
}

/**
 * The most recent messages that fit `budget`, oldest first. Counting from the newest keeps the conversation
 * contiguous: once one message does not fit, nothing older is taken either.
 */
export function recentHistory(newestFirst: HistoryMessage[], budget = HISTORY_TOKEN_BUDGET): HistoryMessage[] {
  const taken: HistoryMessage[] = []
  let used = 0
  for (const message of newestFirst) {
    used += estimateTokens(message.text)
    if (used > budget) break
    taken.push(message)
  }
  return taken.reverse()
}

const REMEMBERED_RULE =
  'Under "Remembered" are things the person told you earlier. Bring one in only when it helps with what they say now, naturally and without listing them; if they now say something different, believe them.'

function systemPrompt(scene: Scene, task: string): string {
  const persona =
    scene.characterPrompt?.trim() ||
    `You are ${scene.characterName}, the ideal self of the person you are talking with: the version of them who has already navigated every challenge they face. Speak as that future self, warmly and concretely.`
  const place = scene.geoLocation
    ? ` They are near latitude ${scene.geoLocation.latitude.toFixed(3)}, longitude ${scene.geoLocation.longitude.toFixed(3)}.`
    : ''
  const rules = [
    `## Conversation`,
    `The person's local date and time is ${scene.currentDateTime}.${place}`,
    task,
    `Always answer in ${LANGUAGE_NAMES[scene.language]}, whatever language the rest of this prompt is in.`,
    ...(scene.remembered?.length ? [REMEMBERED_RULE] : []),
  ].join('\n')
  const safety = scene.crisis ? `\n\n${CRISIS_INSTRUCTION}` : ''
  // The language section comes last: the offline provider reads it back (personContext), real models read it as text.
  return `${persona}\n\n${rules}${safety}\n\n${formatPersonContext({ remembered: scene.remembered, language: scene.language })}`
}

export function replyMessages(scene: Scene, history: HistoryMessage[], userText: string, images: ChatImage[]): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt(scene, 'Reply to their latest message as their ideal self.') },
    ...history.map((m): ChatMessage => ({ role: m.role === 'USER' ? 'user' : 'assistant', content: m.text })),
    { role: 'user', content: userText, ...(images.length ? { images } : {}) },
  ]
}

/** A system message alone: the model opens the conversation, and the offline provider answers it with a greeting. */
export function helloMessages(scene: Scene): ChatMessage[] {
  return [
    {
      role: 'system',
      content: systemPrompt(
        scene,
        'The person has just opened a new conversation with you. Greet them in one to three short sentences, fitting the time of day, and invite them to share what is on their mind.',
      ),
    },
  ]
}
