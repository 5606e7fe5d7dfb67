// No model at all (DESIGN §6): replies composed from what the messages carry — the person's message, the
// person-context sections of the prompt and the replies so far (offlineCompanion.ts) — so a self-hosted install
// without a model still answers usefully. Same messages, same reply: nothing here is random.
import { sampleFromSchema } from './jsonSchema'
import { replyLanguage, type Language } from './language'
import { OFFLINE_TEXTS, type OfflineTexts } from './offlineTexts'
import { companionReply } from './offlineCompanion'
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
  /** The replies given so far in this conversation, oldest first. */
  earlier: string[]
}

function readConversation(messages: ChatMessage[]): Conversation {
  let context: PersonContext = {}
  let said = ''
  let sentImages = false
  let turn = 0
  const earlier: string[] = []
  for (const message of messages) {
    if (message.role === 'assistant') {
      earlier.push(message.content)
      continue
    }
    const split = splitPersonContext(message.content)
    context = { ...context, ...split.context }
    if (message.role === 'user') {
      said = split.rest.replace(/\s+/g, ' ').trim()
      sentImages = Boolean(message.images?.length)
      turn++
    }
  }
  return { context, said, sentImages, turn, language: replyLanguage(said, context.language), earlier }
}

// A memory recalled for this message comes first: it is what the reply can build on.
const REMEMBERED: Record<Language, (memory: string) => string> = {
  'en-US': (memory) => `I remember what you told me: ${memory}.`,
  'zh-TW': (memory) => `我記得你說過：${memory}。`,
  'zh-CN': (memory) => `我记得你说过：${memory}。`,
}

/** An ordinary reply: the offline companion's, from the conversation so far, after a recalled memory if any. */
function composeReply(conversation: Conversation): string {
  const reply = companionReply(conversation)
  const memory = conversation.context.remembered?.[0]?.trim().replace(/[.!?。！？]+$/u, '')
  return memory ? `${REMEMBERED[conversation.language](memory)} ${reply}` : reply
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
