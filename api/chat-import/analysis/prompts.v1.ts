// The two model prompts of the chat-history analysis: a short description of how the user writes, and the
// relationship types of the people they chat with. The measurements themselves are made in code.
import type { ChatMessage } from '../../llm/provider'
import { RELATIONSHIP_TYPES } from '../../content/definitions'
import { promptStats, type StyleProfile } from './speakingStyle'
import type { Person } from './people'

export const SUMMARY_MAX = 800
const LINE_MAX = 200
const LINES_PER_PERSON = 8

const cut = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return Array.from(flat).length > LINE_MAX ? `${Array.from(flat).slice(0, LINE_MAX).join('')}…` : flat
}

export const styleSummarySchema = {
  type: 'object',
  properties: { summary: { type: 'string', maxLength: SUMMARY_MAX } },
  required: ['summary'],
} as const

export function styleSummaryMessages(profile: StyleProfile): ChatMessage[] {
  const stats = Object.entries(promptStats(profile)).map(([key, value]) => `- ${key}: ${value}`)
  return [
    {
      role: 'system',
      content: [
        'You describe how one person writes in chat messages, for an assistant that will write the way they do.',
        'Write "summary": two to four plain English sentences about their tone, rhythm, message length, the languages they mix, emoji, punctuation and favourite expressions.',
        'Base it only on the measurements and messages given; do not name anyone or retell what the messages are about.',
      ].join('\n'),
    },
    {
      role: 'user',
      content: ['Measurements:', ...stats, '', 'Some of their messages:', ...profile.samples.map((s) => `> ${cut(s)}`)].join('\n'),
    },
  ]
}

export const peopleTypesSchema = {
  type: 'object',
  properties: {
    people: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          types: { type: 'array', items: { type: 'string', enum: [...RELATIONSHIP_TYPES] } },
        },
        required: ['name', 'types'],
      },
    },
  },
  required: ['people'],
} as const

export function peopleTypesMessages(userName: string, people: Person[]): ChatMessage[] {
  const blocks = people.map((p) =>
    [
      `## ${p.name}`,
      `${p.sent} messages from them, ${p.received} from ${userName} to them, last on ${p.lastMessageAt.slice(0, 10)}`,
      ...p.texts.slice(-LINES_PER_PERSON).map((t) => `> ${cut(t)}`),
    ].join('\n'),
  )
  return [
    {
      role: 'system',
      content: [
        `${userName} imported chats with the people below. For each person, choose the relationship types to ${userName} that the name and the lines suggest, one or two, from: ${RELATIONSHIP_TYPES.join(', ')}.`,
        'Kinship words in a contact name (Mom, 媽, 哥, 阿姨 …) are strong hints; work talk suggests COLLEAGUE; endearments suggest ROMANTIC_PARTNER; when nothing points elsewhere, choose CLOSE_FRIEND.',
        'Answer with every person, using their name exactly as written after "## ".',
      ].join('\n'),
    },
    { role: 'user', content: blocks.join('\n\n') },
  ]
}
