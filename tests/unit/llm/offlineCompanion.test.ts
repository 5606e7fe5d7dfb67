// The offline companion read as a companion: varied wording across a conversation, no sentence repeated within
// 10 turns, never more than a few words of the person's message quoted back, built on their story, ideal self
// and people, in their language — over a broad set of messages in English, Traditional and Simplified Chinese.
import { describe, expect, test } from 'vitest'
import { createOfflineProvider } from '../../../api/llm/offlineProvider'
import { formatPersonContext, type PersonContext } from '../../../api/llm/personContext'
import { inTheirTerms, moodOf, REPEAT_WINDOW, sentencesOf, shortPiece, themesOf } from '../../../api/llm/offlineCompanion'
import type { Language } from '../../../api/llm/language'
import type { ChatMessage } from '../../../api/llm/provider'

const offline = createOfflineProvider()

const PEOPLE: Record<Language, PersonContext> = {
  'en-US': {
    name: 'Alex',
    idealSelf: 'Calm, focused and kind to myself. Someone who finishes what I start.',
    goal: 'Finish my thesis this year',
    story: ['I grew up by the sea, and my father fished every morning.', 'When I was fifteen I moved to the city alone.'],
    people: ['Mei (close friend)', 'Mom (parents)', 'Daniel (colleague)'],
    language: 'en-US',
  },
  'zh-TW': {
    name: '小安',
    idealSelf: '一個沉穩、專注，也對自己溫柔的人',
    goal: '今年完成論文',
    story: ['我在海邊長大，爸爸每天早上出海捕魚。', '十五歲那年我一個人搬到台北。'],
    people: ['小美 (close friend)', '媽媽 (parents)', '志明 (colleague)'],
    language: 'zh-TW',
  },
  'zh-CN': {
    name: '小安',
    idealSelf: '一个沉稳、专注，也对自己温柔的人',
    goal: '今年完成论文',
    story: ['我在海边长大，爸爸每天早上出海捕鱼。', '十五岁那年我一个人搬到上海。'],
    people: ['小美 (close friend)', '妈妈 (parents)', '志明 (colleague)'],
    language: 'zh-CN',
  },
}

/** Messages a person might send, in each language: moods, themes, questions, people, long and short. */
const MESSAGES: Record<Language, string[]> = {
  'en-US': [
    'I keep putting off my thesis and I feel awful about it.',
    'My manager criticised my report in front of the whole team today and I wanted to disappear.',
    'I passed my driving test this morning, I am so happy!',
    'Should I quit my job and go back to school?',
    'Mei and I had a fight about something stupid and now she is not answering.',
    'I have not slept properly in a week and everything feels too much.',
    'I don\'t know what to do anymore.',
    'I don\'t know what to do anymore.',
    'My mom keeps asking when I will get married and it drives me crazy.',
    'I feel lonely since I moved to this city, nobody here really knows me.',
    'Rent went up again and I am worried I will not be able to afford it next year.',
    'Everyone around me seems to be doing better than me, I feel like a failure.',
    'What would you do if you were me right now?',
    'Today was a quiet day, I went for a walk by the river after work and cooked dinner.',
    'Daniel took credit for my idea in the meeting and I said nothing.',
    'I finally finished the first chapter of my thesis!',
    'I am nervous about the interview on Friday, what if I freeze?',
    'My girlfriend wants to move in together but I am not sure I am ready for that step.',
    'I forgot to call my grandmother on her birthday and I feel terrible.',
    'Work is fine I guess, nothing special happening this week.',
  ],
  'zh-TW': [
    '我一直拖著論文不寫，覺得自己好糟糕。',
    '今天主管在全組面前批評我的報告，我好想消失。',
    '我今天早上考過駕照了，好開心！',
    '我該不該辭職回去念書？',
    '我跟小美為了一件小事吵架，現在她都不回我訊息。',
    '我已經一個禮拜沒睡好了，什麼都覺得好累。',
    '我真的不知道該怎麼辦了。',
    '我真的不知道該怎麼辦了。',
    '媽媽一直問我什麼時候要結婚，我快受不了了。',
    '搬來這個城市之後我覺得好孤單，這裡沒有人真的認識我。',
    '房租又漲了，我很擔心明年付不起。',
    '身邊每個人好像都過得比我好，我覺得自己很失敗。',
    '如果你是我，你現在會怎麼做？',
    '今天很平靜，下班後去河邊散步，回家煮了晚餐。',
    '志明在會議上把我的點子說成是他的，我卻什麼都沒說。',
    '我終於寫完論文的第一章了！',
    '星期五的面試讓我好緊張，萬一我腦袋一片空白怎麼辦？',
    '女朋友想要一起住，但我不確定自己準備好了沒有。',
    '我忘了在奶奶生日那天打電話給她，覺得很難過。',
    '工作還好吧，這週沒什麼特別的事。',
  ],
  'zh-CN': [
    '我一直拖着论文不写，觉得自己好糟糕。',
    '今天老板在全组面前批评我的报告，我好想消失。',
    '我今天早上考过驾照了，好开心！',
    '我该不该辞职回去读书？',
    '我跟小美为了一件小事吵架，现在她都不回我消息。',
    '我已经一个礼拜没睡好了，什么都觉得好累。',
    '我真的不知道该怎么办了。',
    '我真的不知道该怎么办了。',
    '妈妈一直问我什么时候要结婚，我快受不了了。',
    '搬来这个城市之后我觉得好孤单，这里没有人真的认识我。',
    '房租又涨了，我很担心明年付不起。',
    '身边每个人好像都过得比我好，我觉得自己很失败。',
    '如果你是我，你现在会怎么做？',
    '今天很平静，下班后去河边散步，回家煮了晚饭。',
    '志明在会议上把我的点子说成是他的，我却什么都没说。',
    '我终于写完论文的第一章了！',
    '星期五的面试让我好紧张，万一我脑袋一片空白怎么办？',
    '女朋友想要一起住，但我不确定自己准备好了没有。',
    '我忘了在奶奶生日那天打电话给她，觉得很难过。',
    '工作还好吧，这周没什么特别的事。',
  ],
}

const LANGUAGES: Language[] = ['en-US', 'zh-TW', 'zh-CN']
const system = (context: PersonContext): ChatMessage => ({ role: 'system', content: `You are their ideal self.\n\n${formatPersonContext(context)}` })

/** Sends the messages one after another, each reply going back into the history as a model's would. */
async function converse(context: PersonContext, said: (string | ChatMessage)[]) {
  const messages: ChatMessage[] = [system(context)]
  const replies: string[] = []
  for (const entry of said) {
    messages.push(typeof entry === 'string' ? { role: 'user', content: entry } : entry)
    const reply = await offline.complete(messages)
    replies.push(reply)
    messages.push({ role: 'assistant', content: reply })
  }
  return replies
}

function repeatedWithinWindow(replies: string[]): string[] {
  const repeats: string[] = []
  replies.forEach((reply, i) => {
    const before = new Set(replies.slice(Math.max(0, i - REPEAT_WINDOW + 1), i).flatMap(sentencesOf))
    for (const sentence of sentencesOf(reply)) if (before.has(sentence)) repeats.push(`turn ${i + 1}: ${sentence}`)
  })
  return repeats
}

/** The longest run the reply shares with the message: words in English, Han characters in Chinese. */
function longestSharedRun(message: string, reply: string, language: Language): number {
  const units = (text: string) =>
    language === 'en-US' ? text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [] : Array.from(text).filter((c) => /\p{Script=Han}/u.test(c))
  const a = units(message)
  const b = units(reply)
  let best = 0
  const row = new Array(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : 0
      best = Math.max(best, row[j])
      diagonal = above
    }
  }
  return best
}

const TRADITIONAL_ONLY = /[們這說聽謝記讓樣來麼對還過時會為點開關問題覺壓難邊實當總氣習慣變與給沒樂辦處該誰單顧獨號態種結錯較張將專轉條萬傷歷決計設論證議調線紅質費貴負責煩惱憂慮懷誤聲舊歸權錄腦臉擔]/u
const SIMPLIFIED_ONLY = /[们这说听谢记让样来么对还过时会为点开关问题觉压难边实当总气习惯变与给没乐办处该谁单顾独号态种结错较张将专转条万伤历决计设论证议调线红质费贵负责烦恼忧虑怀误声旧归权录脑脸担]/u

describe.each(LANGUAGES)('the offline companion in %s', (language) => {
  const context = PEOPLE[language]
  const messages = MESSAGES[language]

  test('no sentence comes back within 10 turns, even when the person repeats themself', async () => {
    const varied = await converse(context, messages)
    expect(repeatedWithinWindow(varied)).toEqual([])
    const same = await converse(context, Array(14).fill(messages[6]))
    expect(repeatedWithinWindow(same)).toEqual([])
    expect(new Set(same).size).toBe(same.length)
    const short = await converse(context, Array(12).fill(language === 'en-US' ? 'ok' : '嗯'))
    expect(repeatedWithinWindow(short)).toEqual([])
    const picture: ChatMessage = { role: 'user', content: '', images: [{ mimeType: 'image/png', data: new Uint8Array([1]) }] }
    expect(repeatedWithinWindow(await converse(context, Array(4).fill(picture)))).toEqual([])
  })

  test('never quotes more than a few words of the message back', async () => {
    const replies = await converse(context, messages)
    const runs = messages.map((m, i) => [m, longestSharedRun(m, replies[i], language), replies[i]] as const)
    const limit = language === 'en-US' ? 3 : 4
    expect(runs.filter(([, run]) => run > limit)).toEqual([])
  })

  test('draws on their ideal self, their story and their people', async () => {
    const replies = (await converse(context, messages)).join('\n')
    const idealPiece = language === 'en-US' ? 'calm, focused and kind to yourself' : context.idealSelf!
    expect(replies).toContain(idealPiece)
    expect(context.story!.some((s) => replies.includes(shortPiece(s)))).toBe(true)
    const names = context.people!.map((p) => p.replace(/\s*\(.*$/, ''))
    expect(names.filter((n) => replies.includes(n)).length).toBeGreaterThanOrEqual(2)
    expect(replies).toContain(context.name)
  })

  test('speaks of the person they named', async () => {
    const [mei] = await converse(context, [messages[4]])
    expect(mei).toContain(language === 'en-US' ? 'Mei' : '小美')
    const [colleague] = await converse(context, [messages[14]])
    expect(colleague).toContain(language === 'en-US' ? 'Daniel' : '志明')
  })

  test('answers in their language, and only in it', async () => {
    const replies = await converse(context, messages)
    for (const reply of replies) {
      if (language === 'en-US') expect(reply).not.toMatch(/\p{Script=Han}/u)
      if (language === 'zh-TW') expect(reply).not.toMatch(SIMPLIFIED_ONLY)
      if (language === 'zh-CN') expect(reply).not.toMatch(TRADITIONAL_ONLY)
      if (language !== 'en-US') expect(reply.replace(/Alex|Mei|Mom|Daniel/g, '')).not.toMatch(/[A-Za-z]{3,}/)
      expect(reply.trim()).toMatch(/[?？]$/)
    }
  })

  test('meets good news as good news', async () => {
    const [passed] = await converse(context, [messages[2]])
    const [finished] = await converse(context, [messages[15]])
    for (const reply of [passed, finished]) {
      expect(reply).not.toMatch(/heavy|hard|hurts|沉重|難熬|难熬|失敗|失败/)
    }
  })
})

test('a person who writes in another language than their onboarding gets a reply in the one they write', async () => {
  const [reply] = await converse(PEOPLE['zh-TW'], ['Actually I would rather talk in English today, my week was long.'])
  // Only the names they gave to themselves and their people may stay in Chinese.
  expect(reply.replace(/小安|小美|媽媽|志明/g, '')).not.toMatch(/\p{Script=Han}/u)
  // Their Chinese ideal self and story are not quoted into an English reply.
  expect(reply).not.toContain('沉穩')
})

describe('reading a message', () => {
  test.each([
    ['I feel so anxious about tomorrow', 'low'],
    ['my boss yelled at me and I cried', 'low'],
    ['I am not happy with how things are going', 'low'],
    ['I got the job, I am so excited!', 'high'],
    ['Thank you, that really helped', 'high'],
    ['How do I tell my sister?', 'asking'],
    ['Should I move abroad', 'asking'],
    ['I went to the market and bought apples', 'neutral'],
    ['我最近壓力好大', 'low'],
    ['我今天好開心', 'high'],
    ['我一点都不开心', 'low'],
    ['我该怎么跟妈妈说？', 'asking'],
    ['今天去市場買了水果', 'neutral'],
  ])('%s → %s', (text, mood) => expect(moodOf(text)).toBe(mood))

  test.each([
    ['My manager gave me a deadline for the project', 'work'],
    ['I have three exams next week', 'study'],
    ['My dad and I do not talk', 'family'],
    ['My boyfriend forgot our anniversary', 'love'],
    ['None of my friends called', 'friends'],
    ['I cannot sleep at night', 'health'],
    ['I cannot pay my rent', 'money'],
    ['I need to decide between two offers', 'choice'],
    ['I feel like a failure compared to my classmates', 'worth'],
    ['老闆一直叫我加班', 'work'],
    ['论文写不完', 'study'],
    ['我跟媽媽吵架', 'family'],
    ['我和男朋友分手了', 'love'],
    ['房租太贵了', 'money'],
  ])('%s → %s', (text, theme) => expect(themesOf(text)).toContain(theme))

  test('the ideal self and goal are said back in the companion\'s voice', () => {
    expect(inTheirTerms('Kind to myself and my family', 'en-US')).toBe('kind to yourself and your family')
    expect(inTheirTerms('Someone I am proud of', 'en-US')).toBe('someone you are proud of')
    expect(inTheirTerms('A steady, kind leader', 'en-US')).toBe('a steady, kind leader')
    expect(inTheirTerms('對自己溫柔的人', 'zh-TW')).toBe('對自己溫柔的人')
  })

  test('a piece of their words is a few words at most', () => {
    expect(shortPiece('I grew up by the sea, and my father fished every morning.')).toBe('I grew up by the sea')
    expect(shortPiece('When I was fifteen years old I moved to the big city alone')).toBe('When I was fifteen years old…')
    expect(Array.from(shortPiece('我從小就在一個非常非常遙遠的海邊小鎮長大並且很喜歡大海')).length).toBeLessThanOrEqual(13)
  })
})
