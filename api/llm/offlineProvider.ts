// No model at all (DESIGN §6): replies composed from what the messages carry — the person's own words and the
// person-context sections of the prompt — so a self-hosted install without a model still answers usefully.
// Same messages, same reply: nothing here is random.
import { sampleFromSchema } from './jsonSchema'
import { replyLanguage, type Language } from './language'
import { OFFLINE_TEXTS, type OfflineTexts } from './offlineTexts'
import { splitPersonContext, type PersonContext } from './personContext'
import { asMessages, type CallOptions, type ChatMessage, type ModelProvider } from './provider'

interface Conversation {
  context: PersonContext
  /** The last user message without any person-context sections in it. */
  said: string
  sentImages: boolean
  /** How many user messages there are; varies the reply from turn to turn. */
  turn: number
  language: Language
}

function readConversation(messages: ChatMessage[]): Conversation {
  let context: PersonContext = {}
  let said = ''
  let sentImages = false
  let turn = 0
  for (const message of messages) {
    if (message.role === 'assistant') continue
    const split = splitPersonContext(message.content)
    context = { ...context, ...split.context }
    if (message.role === 'user') {
      said = split.rest.replace(/\s+/g, ' ').trim()
      sentImages = Boolean(message.images?.length)
      turn++
    }
  }
  return { context, said, sentImages, turn, language: replyLanguage(said, context.language) }
}

const HAN = /\p{Script=Han}/u

// FNV-1a: a stable number from the text, so the choice of wording follows the message and not the clock.
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

function pick<T>(options: T[], seed: number): T {
  return options[seed % options.length]
}

/** A quotable piece of `text`: one line, cut at a word where there are words, without closing punctuation. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chinese = HAN.test(flat)
  const chars = Array.from(flat)
  const limit = chinese ? 60 : 140
  if (chars.length <= limit) return flat.replace(/[.!?。！？]+$/u, '')
  const cut = chars.slice(0, limit).join('')
  return `${(!chinese && cut.replace(/\s+\S*$/, '')) || cut}…`
}

/** Too little to reflect on: under three words, or under four Chinese characters. */
function isTooShort(said: string): boolean {
  return HAN.test(said) ? (said.match(/\p{Script=Han}/gu) ?? []).length < 4 : said.split(' ').length < 3
}

function composeReply({ context, said, sentImages, turn, language }: Conversation): string {
  const texts = OFFLINE_TEXTS[language]
  const idealSelf = context.idealSelf && excerpt(context.idealSelf)
  if (!said) return sentImages ? texts.imageOnly(context.name) : texts.greeting(context.name, idealSelf)
  if (isTooShort(said)) return texts.nudge(context.name)

  const seed = hash(`${turn}:${said}`)
  const sentences = [pick(texts.reflect, seed)(context.name, excerpt(said))]
  if (idealSelf) sentences.push(pick(texts.identity, turn)(idealSelf))
  // Every other turn brings back something they said during onboarding, so the conversation builds on it.
  const earlier = [context.goal, ...(context.story ?? [])].filter((entry): entry is string => Boolean(entry))
  // A memory recalled for this message comes back first: it is what the message is about.
  const remembered = context.remembered?.[0]
  if (remembered) sentences.push(texts.earlier(excerpt(remembered)))
  else if (earlier.length && turn % 2 === 1) sentences.push(texts.earlier(excerpt(pick(earlier, turn >> 1))))
  sentences.push(pick(texts.step, seed >>> 4))
  return `${sentences.join(texts.space)}\n\n${pick(texts.question, seed >>> 8)}`
}

/** The profile in a few labelled lines: what a prompt-like JSON field gets, since there is no model to write one. */
function summarise(context: PersonContext, texts: OfflineTexts): string {
  const lines = [
    [texts.summary.name, context.name],
    [texts.summary.idealSelf, context.idealSelf],
    [texts.summary.goal, context.goal],
    [texts.summary.story, context.story?.join(' / ')],
    [texts.summary.people, context.people?.join(', ')],
  ]
  return lines
    .filter(([, value]) => value)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n')
}

/** A JSON string field named like a context field gets that field; prompt-like fields the summary; others the reply. */
function fieldText(path: string[], conversation: Conversation, reply: string): string {
  const key = ([...path].reverse().find((part) => !/^\d+$/.test(part)) ?? '').toLowerCase().replace(/[^a-z]/g, '')
  const { context } = conversation
  const fromContext =
    key.includes('idealself') ? context.idealSelf
    : key.endsWith('name') ? context.name
    : key.includes('goal') ? context.goal
    : key.includes('story') ? context.story?.join('\n')
    : key.includes('people') || key.includes('relation') ? context.people?.join('\n')
    : key.includes('language') ? conversation.language
    : undefined
  if (fromContext) return fromContext
  if (/prompt|summary|description|profile|persona|instruction/.test(key)) {
    return summarise(context, OFFLINE_TEXTS[conversation.language]) || reply
  }
  return reply
}

/** Word-sized pieces, or single characters in Chinese, that join back into exactly `text`. */
export function offlineChunks(text: string): string[] {
  return text.match(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]|[^\s\p{Script=Han}\u3000-\u303f\uff00-\uffef]+\s*|\s+/gu) ?? []
}

export function createOfflineProvider(): ModelProvider {
  const reply = (messages: ChatMessage[], opts: CallOptions = {}) => {
    opts.signal?.throwIfAborted()
    return composeReply(readConversation(messages))
  }
  return {
    kind: 'offline',
    model: null,
    async *streamChat(messages, opts = {}) {
      for (const chunk of offlineChunks(reply(messages, opts))) {
        opts.signal?.throwIfAborted()
        yield chunk
      }
    },
    complete: async (prompt, opts) => reply(asMessages(prompt), opts),
    async json<T>(prompt: string | ChatMessage[], schema: object, opts?: CallOptions) {
      opts?.signal?.throwIfAborted()
      const conversation = readConversation(asMessages(prompt))
      const text = composeReply(conversation)
      return sampleFromSchema(schema, (path) => fieldText(path, conversation, text)) as T
    },
  }
}
