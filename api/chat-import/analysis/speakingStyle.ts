// How the person writes, measured in code from their own messages in the imported chats: languages, message
// length, bursts, emoji, punctuation habits, favourite phrases and a few typical messages. Pure.
import type { ChatMessage } from '../types'
import type { SpeakingStyle } from '../../characters/characterPrompt'
import { LANGUAGE_LABELS, languageMix, type LanguageMix } from './languageMix'
import { topPhrases, type Phrase } from './phrases'
import { isPlaceholder } from './placeholders'
import { userNameIn } from './userNameIn'

export interface StyleProfile {
  /** The person's messages in all files, media included. */
  messageCount: number
  /** The most recent ones, which every figure below is measured on. */
  measuredMessages: number
  languageMix: LanguageMix
  /** In characters, over messages with text. */
  averageLength: number
  medianLength: number
  /** Messages sent in a row before someone else writes or the chat goes quiet for a while. */
  messagesPerBurst: number
  emoji: { perMessage: number; messageShare: number; top: { emoji: string; count: number }[] }
  /** Share of text messages with each habit, most used first. */
  habits: { habit: string; share: number }[]
  /** Share of messages that are stickers, photos, calls and the like. */
  mediaShare: number
  phrases: Phrase[]
  /** Up to SAMPLE_COUNT messages of typical length, verbatim (cut at SAMPLE_MAX characters). */
  samples: string[]
}

/** Recent writing is what the character should sound like; it also bounds the work on a huge export. */
export const STYLE_WINDOW = 5000
const BURST_GAP_MS = 10 * 60 * 1000
const SAMPLE_COUNT = 8
const SAMPLE_MAX = 200

const HABITS: { habit: string; test: RegExp }[] = [
  { habit: '!!', test: /[!！]{2,}/u },
  { habit: '...', test: /\.{3,}|…|。{2,}/u },
  { habit: '～', test: /[~～]/u },
  { habit: '??', test: /[?？]{2,}/u },
  { habit: '哈哈', test: /哈哈|呵呵/u },
  { habit: 'lol', test: /\blol\b|\blmao\b/iu },
  { habit: 'haha', test: /\b(?:ha){2,}h?\b|\bhehe\b/iu },
  { habit: 'www', test: /(?:^|[^a-z])w{3,}(?![a-z])|ｗ{2,}|[（(]笑[）)]/iu },
]
/** A habit shows in at least this share of messages, and in two of them at least. */
const HABIT_MIN_SHARE = 0.03

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u
const LETTER = /\p{L}/u
const ONLY_LINK = /^https?:\/\/\S+$/u
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places
const timeOf = (date: string) => Date.parse(`${date}Z`)
const lengthOf = (text: string) => Array.from(text).length

interface OwnMessage {
  date: string
  text: string
}

/** The person's messages in date order, and how many bursts they came in. */
function ownMessages(chats: ChatMessage[][], chosenName: string): { messages: OwnMessage[]; bursts: number } {
  const messages: OwnMessage[] = []
  let bursts = 0
  for (const chat of chats) {
    const authors = new Set(chat.filter((m) => m.kind === 'message').map((m) => m.author))
    const userName = userNameIn([...authors], chosenName)
    let previous: ChatMessage | null = null
    for (const message of chat) {
      if (message.kind !== 'message') continue
      if (message.author === userName) {
        const continues =
          previous?.author === userName && timeOf(message.date) - timeOf(previous.date) <= BURST_GAP_MS
        if (!continues) bursts++
        messages.push({ date: message.date, text: message.text })
      }
      previous = message
    }
  }
  // Stable: messages of the same minute keep their file order.
  messages.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return { messages, bursts }
}

/** The person's own messages of an import, kept for the next import to measure the style on (never anyone else's). */
export interface KeptMessage {
  date: string
  text: string
  /** Starts a burst (someone else wrote before it, or the chat was quiet). */
  burst: boolean
}

/** What an import keeps of the person's writing: the most recent STYLE_WINDOW of their messages. */
export function keptMessages(chats: ChatMessage[][], chosenName: string): KeptMessage[] {
  const kept: KeptMessage[] = []
  for (const chat of chats) {
    const userName = userNameIn([...new Set(chat.filter((m) => m.kind === 'message').map((m) => m.author))], chosenName)
    let previous: ChatMessage | null = null
    for (const message of chat) {
      if (message.kind !== 'message') continue
      if (message.author === userName) {
        const continues = previous?.author === userName && timeOf(message.date) - timeOf(previous.date) <= BURST_GAP_MS
        kept.push({ date: message.date, text: message.text, burst: !continues })
      }
      previous = message
    }
  }
  kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return kept.slice(-STYLE_WINDOW)
}

/**
 * Earlier imports' kept messages as one chat of `chosenName`, for measureSpeakingStyle beside the new chats; a
 * message already among `known` (the same chat imported again) is left out. An empty-named line marks where a
 * burst started.
 */
export function keptAsChat(kept: KeptMessage[][], chosenName: string, known: KeptMessage[]): ChatMessage[] {
  const seen = new Set(known.map((m) => `${m.date}\u0000${m.text}`))
  const chat: ChatMessage[] = []
  for (const messages of kept)
    for (const m of messages) {
      const key = `${m.date}\u0000${m.text}`
      if (seen.has(key)) continue
      seen.add(key)
      if (m.burst) chat.push({ date: m.date, author: '', text: '', kind: 'message' })
      chat.push({ date: m.date, author: chosenName, text: m.text, kind: 'message' })
    }
  return chat
}

function median(sorted: number[]): number {
  if (!sorted.length) return 0
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function emojiUse(texts: string[]): StyleProfile['emoji'] {
  const counts = new Map<string, number>()
  let total = 0
  let withEmoji = 0
  for (const text of texts) {
    if (!PICTOGRAPHIC.test(text)) continue
    withEmoji++
    for (const { segment } of graphemes.segment(text)) {
      if (!PICTOGRAPHIC.test(segment)) continue
      total++
      counts.set(segment, (counts.get(segment) ?? 0) + 1)
    }
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([emoji, count]) => ({ emoji, count }))
  const n = texts.length || 1
  return { perMessage: round(total / n, 2), messageShare: round(withEmoji / n, 3), top }
}

function habitsOf(texts: string[]): StyleProfile['habits'] {
  const n = texts.length
  return HABITS.map(({ habit, test }) => ({ habit, used: texts.filter((t) => test.test(t)).length }))
    .filter(({ used }) => used >= 2 && used / n >= HABIT_MIN_SHARE)
    .sort((a, b) => b.used - a.used)
    .map(({ habit, used }) => ({ habit, share: round(used / n, 3) }))
}

/**
 * Messages of typical length (between the quartiles), spread evenly over the measured period so one day's topic
 * does not fill them, without repeats or bare links.
 */
function samplesOf(texts: string[]): string[] {
  const usable = texts.filter((t) => LETTER.test(t) && !ONLY_LINK.test(t))
  const lengths = usable.map(lengthOf).sort((a, b) => a - b)
  const low = lengths[Math.floor((lengths.length - 1) * 0.25)] ?? 0
  const high = lengths[Math.ceil((lengths.length - 1) * 0.75)] ?? 0
  const typical = [...new Set(usable.filter((t) => lengthOf(t) >= low && lengthOf(t) <= high))]
  const step = typical.length / SAMPLE_COUNT
  const picked = typical.length <= SAMPLE_COUNT ? typical : Array.from({ length: SAMPLE_COUNT }, (_, i) => typical[Math.floor(i * step)])
  return picked.map((t) => (lengthOf(t) > SAMPLE_MAX ? `${Array.from(t).slice(0, SAMPLE_MAX).join('')}…` : t))
}

export function measureSpeakingStyle(chats: ChatMessage[][], userName: string): StyleProfile {
  const { messages, bursts } = ownMessages(chats, userName)
  const measured = messages.slice(-STYLE_WINDOW)
  const texts = measured.map((m) => m.text.trim()).filter((t) => !isPlaceholder(t))
  const lengths = texts.map(lengthOf).sort((a, b) => a - b)
  return {
    messageCount: messages.length,
    measuredMessages: measured.length,
    languageMix: languageMix(texts),
    averageLength: round(lengths.reduce((a, b) => a + b, 0) / (lengths.length || 1)),
    medianLength: median(lengths),
    messagesPerBurst: round(messages.length / (bursts || 1), 2),
    emoji: emojiUse(texts),
    habits: habitsOf(texts),
    mediaShare: round((measured.length - texts.length) / (measured.length || 1), 3),
    phrases: topPhrases(texts),
    samples: samplesOf(texts),
  }
}

const percent = (share: number) => `${Math.round(share * 100)}%`

function languagesText(mix: LanguageMix): string {
  return (Object.keys(LANGUAGE_LABELS) as (keyof LanguageMix)[])
    .filter((key) => mix[key] >= 0.01)
    .sort((a, b) => mix[b] - mix[a])
    .map((key) => `${LANGUAGE_LABELS[key]} ${percent(mix[key])}`)
    .join(', ')
}

/** The figures as the character prompt lists them (SpeakingStyle.stats); what was not seen is left out. */
export function promptStats(profile: StyleProfile): Record<string, string | number> {
  const stats: Record<string, string | number> = { 'messages measured': profile.measuredMessages }
  const languages = languagesText(profile.languageMix)
  if (languages) stats['language mix'] = languages
  if (profile.averageLength) stats['message length'] = `average ${profile.averageLength}, median ${profile.medianLength} characters`
  stats['messages in a row'] = profile.messagesPerBurst
  if (profile.emoji.top.length)
    stats.emoji = `${profile.emoji.perMessage} per message, in ${percent(profile.emoji.messageShare)} of messages; most used ${profile.emoji.top.map((e) => e.emoji).join(' ')}`
  if (profile.habits.length) stats.habits = profile.habits.map((h) => `"${h.habit}" in ${percent(h.share)}`).join(', ')
  if (profile.phrases.length) stats['frequent phrases'] = profile.phrases.map((p) => `"${p.text}"`).join(', ')
  if (profile.mediaShare) stats['stickers, photos and calls'] = `${percent(profile.mediaShare)} of messages`
  return stats
}

/** A plain description of the figures, for when no model writes one (offline, or the model failed). */
export function describeStyle(profile: StyleProfile): string {
  if (!profile.measuredMessages) return 'No messages of theirs were found in the imported chats.'
  const sentences: string[] = []
  const languages = languagesText(profile.languageMix)
  if (languages) sentences.push(`Writes in ${languages}.`)
  const size = profile.medianLength <= 8 ? 'short' : profile.medianLength <= 30 ? 'medium-length' : 'long'
  const rhythm = profile.messagesPerBurst >= 1.8 ? `, often several in a row (${profile.messagesPerBurst} on average)` : ''
  sentences.push(`Sends ${size} messages (median ${profile.medianLength} characters)${rhythm}.`)
  if (profile.emoji.top.length)
    sentences.push(
      `${profile.emoji.messageShare >= 0.3 ? 'Uses emoji a lot' : 'Uses emoji now and then'}, most of all ${profile.emoji.top.slice(0, 3).map((e) => e.emoji).join(' ')}.`,
    )
  else sentences.push('Rarely uses emoji.')
  if (profile.habits.length) sentences.push(`Habits: ${profile.habits.map((h) => `"${h.habit}"`).join(', ')}.`)
  if (profile.phrases.length) sentences.push(`Often says ${profile.phrases.slice(0, 5).map((p) => `"${p.text}"`).join(', ')}.`)
  if (profile.mediaShare >= 0.15) sentences.push('Often answers with stickers or photos.')
  return sentences.join(' ')
}

export function promptStyle(profile: StyleProfile, summary: string): SpeakingStyle {
  return { summary, samples: profile.samples, stats: promptStats(profile) }
}
