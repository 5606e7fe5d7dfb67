// The glowing guide of onboarding (spec §2 conversation-start, §4 "Story telling"): one short, warm question at a
// time about a challenge the person faces and how their ideal self would handle it, then a closing line.
import type { Language } from '../llm/language'
import type { ChatMessage } from '../llm/provider'
import { formatPersonContext } from '../llm/personContext'

export interface StoryEntryText {
  role: 'GUIDE' | 'USER'
  content: string
}

export interface StoryGuideInput {
  userName: string | null
  /** Who they want to become: the improved role description when there is one, else their own words. */
  idealSelf: string | null
  /** The story so far, oldest first, including the answer being replied to. */
  entries: StoryEntryText[]
  /** How many answers make the story (cfg.storyExchanges). */
  exchanges: number
  language: Language
}

interface GuideTexts {
  role: (name: string) => string
  rules: string[]
  /** What the question of answer number `index` (0-based) is about; the last one repeats. */
  focus: string[]
  progress: (next: number, total: number, focus: string) => string
  opening: string
  next: string
  closing: (total: number) => string
  someone: string
}

const TEXTS: Record<Language, GuideTexts> = {
  'en-US': {
    role: (name) =>
      `You are the small glowing guide of the Ideal Self app. Together with ${name} you are writing a short story about a challenge ${name} faces today and how the person ${name} wants to become would handle it.`,
    rules: [
      'Ask exactly one short, warm question per message; at most one sentence may come before it.',
      'Build on what they just told you, using their own words and details.',
      'Never judge, diagnose or give advice yet; you are only gathering the story.',
      'Write in English; if they write in another language, answer in theirs.',
    ],
    focus: [
      'a concrete challenge they are facing right now',
      'what makes it hard and how it feels for them',
      'how their ideal self would see and handle this challenge',
      'the first small step their ideal self would take, and how it would feel afterwards',
    ],
    progress: (next, total, focus) => `This is question ${next} of ${total}. Ask about ${focus}.`,
    opening: 'Open the story: greet them by name in a few words, then ask your first question.',
    next: 'Reply to their last answer with your next question.',
    closing: (total) =>
      `They have answered all ${total} questions. Thank them warmly in one or two sentences, mention one thing they shared, and tell them their ideal self is now taking shape. Do not ask anything.`,
    someone: 'the person',
  },
  'zh-TW': {
    role: (name) =>
      `你是 Ideal Self 應用程式裡那個發著光的小嚮導。你正和${name}一起寫一個短短的故事：${name}現在面對的一個挑戰，以及${name}想成為的那個人會怎麼面對它。`,
    rules: [
      '每則訊息只問一個簡短、溫暖的問題；問題前最多只說一句話。',
      '接著對方剛剛說的內容往下問，用他們自己的話和細節。',
      '不評判、不診斷，也先不給建議；你只是在收集這個故事。',
      '用繁體中文回答；如果對方用其他語言書寫，就用對方的語言。',
    ],
    focus: [
      '他們現在正面對的一個具體挑戰',
      '這件事難在哪裡、讓他們有什麼感受',
      '理想中的自己會怎麼看待、怎麼處理這個挑戰',
      '理想中的自己會踏出的第一小步，以及之後的感受',
    ],
    progress: (next, total, focus) => `這是第 ${next} 個問題，共 ${total} 個。這次問的是：${focus}。`,
    opening: '開始這個故事：用幾個字叫對方的名字打招呼，然後問第一個問題。',
    next: '回應對方剛才的回答，並問下一個問題。',
    closing: (total) =>
      `對方已經回答完全部 ${total} 個問題。用一兩句話溫暖地謝謝他們，提到他們分享過的一件事，並告訴他們理想中的自己正在成形。不要再提問。`,
    someone: '對方',
  },
  'zh-CN': {
    role: (name) =>
      `你是 Ideal Self 应用里那个发着光的小向导。你正和${name}一起写一个短短的故事：${name}现在面对的一个挑战，以及${name}想成为的那个人会怎么面对它。`,
    rules: [
      '每条消息只问一个简短、温暖的问题；问题前最多只说一句话。',
      '接着对方刚刚说的内容往下问，用他们自己的话和细节。',
      '不评判、不诊断，也先不给建议；你只是在收集这个故事。',
      '用简体中文回答；如果对方用其他语言书写，就用对方的语言。',
    ],
    focus: [
      '他们现在正面对的一个具体挑战',
      '这件事难在哪里、让他们有什么感受',
      '理想中的自己会怎么看待、怎么处理这个挑战',
      '理想中的自己会迈出的第一小步，以及之后的感受',
    ],
    progress: (next, total, focus) => `这是第 ${next} 个问题，共 ${total} 个。这次问的是：${focus}。`,
    opening: '开始这个故事：用几个字叫对方的名字打招呼，然后问第一个问题。',
    next: '回应对方刚才的回答，并问下一个问题。',
    closing: (total) =>
      `对方已经回答完全部 ${total} 个问题。用一两句话温暖地谢谢他们，提到他们分享过的一件事，并告诉他们理想中的自己正在成形。不要再提问。`,
    someone: '对方',
  },
}

/** How many of the entries are answers: the story is complete when this reaches the number of exchanges. */
export const answerCount = (entries: StoryEntryText[]) => entries.filter((e) => e.role === 'USER').length

/**
 * The messages that make the guide write its next line: the opening question when nothing was said yet, the next
 * question while answers are missing, and the closing line once all `exchanges` answers are in.
 */
export function storyGuideMessages(input: StoryGuideInput): ChatMessage[] {
  const texts = TEXTS[input.language]
  const answers = input.entries.filter((e) => e.role === 'USER').map((e) => e.content)
  const name = input.userName?.trim() || texts.someone
  const task =
    answers.length >= input.exchanges
      ? texts.closing(input.exchanges)
      : [
          answers.length === 0 ? texts.opening : texts.next,
          texts.progress(answers.length + 1, input.exchanges, texts.focus[Math.min(answers.length, texts.focus.length - 1)]),
        ].join('\n')
  const system = [
    texts.role(name),
    texts.rules.map((rule) => `- ${rule}`).join('\n'),
    task,
    formatPersonContext({
      name: input.userName ?? undefined,
      idealSelf: input.idealSelf ?? undefined,
      story: answers,
      language: input.language,
    }),
  ].join('\n\n')
  return [
    { role: 'system', content: system },
    ...input.entries.map((e): ChatMessage => ({ role: e.role === 'GUIDE' ? 'assistant' : 'user', content: e.content })),
  ]
}
