// After each exchange: what to remember from the person's latest message, given what is already remembered. One
// JSON-schema call returns new memories, changes to known ones and the ones the message shows are no longer true.
import type { ChatMessage } from '../llm/provider'
import { MEMORY_KINDS, MEMORY_LABEL_MAX, MEMORY_TEXT_MAX, type MemoryKind } from '../memory/memories'

export interface KnownMemory {
  id: string
  kind: MemoryKind
  text: string
}

export interface MemoryExtractorInput {
  /** The person's latest message. */
  message: string
  /** The companion's reply to it, for context only. */
  reply: string | null
  known: KnownMemory[]
  /** Names of the people in their relationship graph. */
  people: string[]
}

export interface ExtractedChanges {
  add: { kind: MemoryKind; text: string; label: string; person: string | null }[]
  update: { id: string; text: string; label: string | null }[]
  outdated: string[]
}

const kind = { type: 'string', enum: [...MEMORY_KINDS] }
const text = { type: 'string', minLength: 1, maxLength: MEMORY_TEXT_MAX }
const label = { type: 'string', minLength: 1, maxLength: MEMORY_LABEL_MAX }

export const memoryExtractorSchema = {
  type: 'object',
  properties: {
    add: {
      type: 'array',
      maxItems: 8,
      items: {
        type: 'object',
        properties: { kind, text, label, person: { type: ['string', 'null'], maxLength: 80 } },
        required: ['kind', 'text', 'label', 'person'],
      },
    },
    update: {
      type: 'array',
      maxItems: 8,
      items: { type: 'object', properties: { id: { type: 'string' }, text, label: { type: ['string', 'null'], maxLength: MEMORY_LABEL_MAX } }, required: ['id', 'text', 'label'] },
    },
    outdated: { type: 'array', maxItems: 8, items: { type: 'string' } },
  },
  required: ['add', 'update', 'outdated'],
} as const

const INSTRUCTIONS = [
  'You keep the long-term memory of a companion app about one person. Read their latest message and decide what is worth remembering for later conversations.',
  'Remember durable facts about the person and their life: their name, the people in their life (with the relation), plans with their dates, likes and dislikes, how they want to be answered, and events that happened to them.',
  'Do not remember small talk, passing moods, questions, hypotheticals, what the companion said, or anything about self-harm.',
  'Each memory is one short sentence in the language the person wrote in, written about them ("Sister Mei starts university in March", "妹妹小美三月開始上大學").',
  'kind is one of: fact, person, plan, preference, event. label is a topic of one to three words for a small chip ("marathon", "Mei"). person is the name of the person the memory is about, or null when it is about them alone.',
  'Known memories are listed with their ids. When the message adds to or corrects a known memory, put it under update with that id and the new full sentence instead of adding a near-duplicate. When the message shows a known memory is no longer true and nothing replaces it, put its id under outdated. Never repeat a known memory under add.',
  'When there is nothing to remember, return empty lists.',
].join('\n')

export function memoryExtractorMessages(input: MemoryExtractorInput): ChatMessage[] {
  const known = input.known.length ? input.known.map((m) => `- [${m.id}] (${m.kind}) ${m.text}`).join('\n') : '(none)'
  const people = input.people.length ? input.people.join(', ') : '(none)'
  return [
    { role: 'system', content: `${INSTRUCTIONS}\n\n## Known memories\n${known}\n\n## People in their life\n${people}` },
    {
      role: 'user',
      content: `${input.reply ? `The companion had said before: ${JSON.stringify(input.reply.slice(0, 600))}\n\n` : ''}The person's latest message:\n${input.message}`,
    },
  ]
}
