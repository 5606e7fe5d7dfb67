// The sentences the offline provider composes its replies from, per language. Each list offers alternatives so
// a conversation does not repeat itself; the provider picks deterministically.
import type { Language } from './language'

export interface OfflineTexts {
  /** No message from the person yet: open the conversation. */
  greeting: (name: string | undefined, idealSelf: string | undefined) => string
  /** They sent only pictures, which the offline provider cannot look at. */
  imageOnly: (name: string | undefined) => string
  /** A message too short to reflect on ("hi", "ok"): invite them to say more. */
  nudge: (name: string | undefined) => string
  reflect: ((name: string | undefined, said: string) => string)[]
  identity: ((idealSelf: string) => string)[]
  earlier: (excerpt: string) => string
  step: string[]
  question: string[]
  /** Labels of the profile summary used for prompt-like JSON fields. */
  summary: { name: string; idealSelf: string; goal: string; story: string; people: string }
  /** What joins the sentences of one paragraph. */
  space: string
}

const en: OfflineTexts = {
  greeting: (name, idealSelf) =>
    `Hi${name ? ` ${name}` : ''}! I'm your ideal self${idealSelf ? ` — "${idealSelf}"` : ''}. What's on your mind today?`,
  imageOnly: (name) =>
    `Thank you for the picture${name ? `, ${name}` : ''}. I can't look at images right now — tell me in a sentence what it means to you.`,
  nudge: (name) => `I'm here${name ? `, ${name}` : ''}. Tell me a bit more — what is on your mind right now?`,
  reflect: [
    (name, said) => `${name ? `${name}, ` : ''}I hear you: "${said}".`,
    (name, said) => `Thank you for telling me${name ? `, ${name}` : ''}: "${said}".`,
    (name, said) => `Let's stay with what you just said${name ? `, ${name}` : ''}: "${said}".`,
  ],
  identity: [
    (idealSelf) => `The person you want to become — "${idealSelf}" — has been exactly here and found a way through.`,
    (idealSelf) => `Remember who you are growing into: "${idealSelf}". That version of you would not try to solve all of it at once.`,
    (idealSelf) => `You described your ideal self as "${idealSelf}". Let's look at this the way that version of you would.`,
  ],
  earlier: (excerpt) => `You told me earlier: "${excerpt}". Keep that in view.`,
  step: [
    'Pick one small, concrete step you can finish today, and write it down.',
    'Separate what is in your control from what is not, and put your energy into the first part.',
    'Picture how you will feel an hour after handling this well, then work backwards to the first move.',
  ],
  question: [
    'What is the smallest step you could take in the next 24 hours?',
    'What would make this feel even 10% lighter?',
    'If a close friend told you this, what would you tell them?',
  ],
  summary: { name: 'Name', idealSelf: 'Wants to become', goal: 'Goal', story: 'Story', people: 'People' },
  space: ' ',
}

const zhTW: OfflineTexts = {
  greeting: (name, idealSelf) => `嗨${name ? `，${name}` : ''}！我是你理想中的自己${idealSelf ? `——「${idealSelf}」` : ''}。今天想聊些什麼？`,
  imageOnly: (name) => `謝謝你分享這張圖片${name ? `，${name}` : ''}。我現在看不到圖片——用一句話告訴我它對你的意義吧。`,
  nudge: (name) => `我在這裡${name ? `，${name}` : ''}。多說一點吧——你現在心裡在想什麼？`,
  reflect: [
    (name, said) => `${name ? `${name}，` : ''}我聽到你說：「${said}」。`,
    (name, said) => `謝謝你告訴我${name ? `，${name}` : ''}：「${said}」。`,
    (name, said) => `我們先停在你剛剛說的這句話${name ? `，${name}` : ''}：「${said}」。`,
  ],
  identity: [
    (idealSelf) => `你想成為的那個人——「${idealSelf}」——也曾走到這一步，並且找到了出路。`,
    (idealSelf) => `記得你正在成為的樣子：「${idealSelf}」。那個你不會想一次解決所有事情。`,
    (idealSelf) => `你把理想中的自己描述為「${idealSelf}」。讓我們用那個你的眼光來看這件事。`,
  ],
  earlier: (excerpt) => `你之前告訴過我：「${excerpt}」。把它放在心上。`,
  step: [
    '選一個今天就能完成的小步驟，把它寫下來。',
    '分清楚哪些在你的掌控之中、哪些不在，把力氣放在前者。',
    '想像你好好處理這件事一小時後的感受，再倒推回第一步。',
  ],
  question: [
    '在接下來的 24 小時裡，你能踏出的最小一步是什麼？',
    '有什麼能讓這件事感覺輕鬆哪怕一點點？',
    '如果好朋友跟你說同樣的話，你會怎麼回應他？',
  ],
  summary: { name: '名字', idealSelf: '想成為', goal: '目標', story: '故事', people: '身邊的人' },
  space: '',
}

const zhCN: OfflineTexts = {
  greeting: (name, idealSelf) => `嗨${name ? `，${name}` : ''}！我是你理想中的自己${idealSelf ? `——“${idealSelf}”` : ''}。今天想聊些什么？`,
  imageOnly: (name) => `谢谢你分享这张图片${name ? `，${name}` : ''}。我现在看不到图片——用一句话告诉我它对你的意义吧。`,
  nudge: (name) => `我在这里${name ? `，${name}` : ''}。多说一点吧——你现在心里在想什么？`,
  reflect: [
    (name, said) => `${name ? `${name}，` : ''}我听到你说：“${said}”。`,
    (name, said) => `谢谢你告诉我${name ? `，${name}` : ''}：“${said}”。`,
    (name, said) => `我们先停在你刚刚说的这句话${name ? `，${name}` : ''}：“${said}”。`,
  ],
  identity: [
    (idealSelf) => `你想成为的那个人——“${idealSelf}”——也曾走到这一步，并且找到了出路。`,
    (idealSelf) => `记得你正在成为的样子：“${idealSelf}”。那个你不会想一次解决所有事情。`,
    (idealSelf) => `你把理想中的自己描述为“${idealSelf}”。让我们用那个你的眼光来看这件事。`,
  ],
  earlier: (excerpt) => `你之前告诉过我：“${excerpt}”。把它放在心上。`,
  step: [
    '选一个今天就能完成的小步骤，把它写下来。',
    '分清楚哪些在你的掌控之中、哪些不在，把力气放在前者。',
    '想象你好好处理这件事一小时后的感受，再倒推回第一步。',
  ],
  question: [
    '在接下来的 24 小时里，你能迈出的最小一步是什么？',
    '有什么能让这件事感觉轻松哪怕一点点？',
    '如果好朋友跟你说同样的话，你会怎么回应他？',
  ],
  summary: { name: '名字', idealSelf: '想成为', goal: '目标', story: '故事', people: '身边的人' },
  space: '',
}

export const OFFLINE_TEXTS: Record<Language, OfflineTexts> = { 'en-US': en, 'zh-TW': zhTW, 'zh-CN': zhCN }
