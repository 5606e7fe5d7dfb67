// The offline companion's ordinary replies: composed, with no model, from how the message reads (its mood and
// themes, the people it names) and from what the person shared in onboarding (their story, the ideal self they
// described, the people in their life), in their language. It never repeats their message back — at most a
// name — and reads its own earlier replies in the conversation so no sentence of theirs comes back within
// REPEAT_WINDOW turns. Same conversation, same reply: nothing here is random.
import { COMPANION_TEXTS, type CompanionTexts, type Mood, type Theme } from './companionTexts'
import type { Language } from './language'
import type { PersonContext } from './personContext'

/** Replies of the companion within which none of its sentences is said again. */
export const REPEAT_WINDOW = 10

export interface CompanionInput {
  context: PersonContext
  /** The person's last message, without any person-context sections. */
  said: string
  sentImages: boolean
  /** How many messages the person has sent in this conversation. */
  turn: number
  language: Language
  /** The companion's earlier replies in this conversation, oldest first. */
  earlier: string[]
}

const HAN = /\p{Script=Han}/u
const HAN_ALL = /\p{Script=Han}/gu

// Cues are matched as whole words in English (a leading prefix for the stems ending in "*") and as substrings
// in Chinese; the Traditional and Simplified forms are both listed where they differ.
const THEMES: Record<Theme, string[]> = {
  work: ['work', 'job', 'boss', 'manager', 'colleague*', 'coworker*', 'office', 'career', 'project*', 'deadline*', 'meeting*', 'promotion', 'interview*', 'fired', 'salary', 'client*', 'shift*', '工作', '上班', '老闆', '老板', '主管', '同事', '公司', '職場', '职场', '面試', '面试', '加班', '薪水', '專案', '项目', '會議', '会议', '辭職', '辞职', '客戶', '客户'],
  study: ['study*', 'exam*', 'test*', 'school', 'class*', 'thesis', 'homework', 'grade*', 'universit*', 'college', 'teacher*', 'lecture*', 'essay*', '考試', '考试', '學校', '学校', '論文', '论文', '功課', '功课', '讀書', '读书', '作業', '作业', '成績', '成绩', '大學', '大学', '老師', '老师', '上課', '上课', '報告', '报告'],
  family: ['mom', 'mum', 'mother', 'dad', 'father', 'parent*', 'sister*', 'brother*', 'family', 'son', 'daughter*', 'kid*', 'grandm*', 'grandp*', 'aunt*', 'uncle*', '媽', '妈', '爸', '父母', '家人', '家裡', '家里', '姊姊', '姐姐', '哥哥', '弟弟', '妹妹', '孩子', '兒子', '儿子', '女兒', '女儿', '奶奶', '爺爺', '爷爷', '阿嬤', '外婆'],
  love: ['boyfriend', 'girlfriend', 'partner', 'husband', 'wife', 'dating', 'date', 'breakup', 'broke', 'ex', 'crush', 'relationship', 'marriage', 'married', 'love', '男朋友', '女朋友', '男友', '女友', '伴侶', '伴侣', '老公', '老婆', '分手', '約會', '约会', '暗戀', '暗恋', '感情', '前任', '結婚', '结婚', '喜歡的人', '喜欢的人'],
  friends: ['friend*', 'lonely', 'alone', 'nobody', 'left out', '朋友', '孤單', '孤单', '寂寞', '沒人', '没人', '一個人', '一个人'],
  health: ['sleep*', 'tired', 'exhausted', 'insomnia', 'sick', 'ill', 'health', 'body', 'exercise', 'gym', 'eating', 'headache*', 'pain', 'burnout', 'burned out', 'burnt out', '睡', '累', '失眠', '生病', '身體', '身体', '運動', '运动', '健康', '頭痛', '头痛', '疲倦', '倦怠'],
  money: ['money', 'rent', 'debt*', 'budget', 'bills', 'afford', 'loan*', 'savings', 'broke', 'expens*', '錢', '钱', '房租', '債', '债', '存款', '帳單', '账单', '預算', '预算', '貸款', '贷款', '花費', '花费'],
  choice: ['decide', 'decision*', 'choose', 'choice*', 'future', 'should i', 'whether', 'option*', 'quit', 'move abroad', '決定', '决定', '選擇', '选择', '未來', '未来', '要不要', '該不該', '该不该', '猶豫', '犹豫', '方向'],
  worth: ['confiden*', 'worthless', 'failure', 'failed', 'fail', 'not good enough', 'compare', 'comparing', 'impostor', 'imposter', 'useless', 'stupid', 'ashamed', '自信', '沒用', '没用', '失敗', '失败', '不夠好', '不够好', '比較', '比较', '丟臉', '丢脸', '自卑', '差勁', '差劲'],
}

const MOODS: Record<'low' | 'high', string[]> = {
  low: ['stress*', 'anxious', 'anxiety', 'worr*', 'sad', 'upset', 'angry', 'mad', 'scared', 'afraid', 'overwhelm*', 'stuck', 'tired', 'lost', 'hurt*', 'cry*', 'cried', 'hate', 'frustrat*', 'lonely', 'depress*', 'panic*', 'awful', 'terrible', 'hopeless', 'exhausted', 'miserable', 'nervous', 'can\'t', 'cannot', 'don\'t know', 'struggl*', 'hard', 'difficult', 'bad', 'worse', 'argu*', 'fight*', 'fought',
    '壓力', '压力', '焦慮', '焦虑', '擔心', '担心', '難過', '难过', '生氣', '生气', '害怕', '卡住', '迷惘', '迷茫', '哭', '煩', '烦', '崩潰', '崩溃', '不知道', '受傷', '受伤', '討厭', '讨厌', '沮喪', '沮丧', '孤單', '孤单', '累', '痛苦', '緊張', '紧张', '吵架', '糟', '難受', '难受', '失眠', '無助', '无助'],
  high: ['happy', 'glad', 'excited', 'proud', 'great', 'amazing', 'wonderful', 'good news', 'did it', 'finally', 'grateful', 'thankful', 'thank*', 'won', 'passed', 'promoted', 'love it', 'celebrat*', 'relieved', 'yay',
    '開心', '开心', '高興', '高兴', '興奮', '兴奋', '驕傲', '骄傲', '成功', '終於', '终于', '感謝', '感谢', '謝謝', '谢谢', '太好了', '通過', '通过', '做到了', '快樂', '快乐', '棒', '升職', '升职', '錄取', '录取'],
}

function cueMatcher(cues: string[]): (text: string) => number {
  const chinese = cues.filter((c) => HAN.test(c))
  const english = cues.filter((c) => !HAN.test(c)).map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, (m) => (m === '*' ? '\\p{L}*' : `\\${m}`)))
  const words = english.length ? new RegExp(`(?<![\\p{L}'])(?:${english.join('|')})(?![\\p{L}'])`, 'giu') : null
  return (text) => (words ? (text.match(words)?.length ?? 0) : 0) + chinese.filter((c) => text.includes(c)).length
}

const themeMatchers = Object.entries(THEMES).map(([theme, cues]) => [theme as Theme, cueMatcher(cues)] as const)
const lowMatcher = cueMatcher(MOODS.low)
const highMatcher = cueMatcher(MOODS.high)
const NEGATED_HIGH = /\b(?:not|never|n't|no longer)\s+(?:\w+\s+)?(?:happy|glad|great|good|proud|excited)\b|不(?:開心|开心|高興|高兴|快樂|快乐)/iu

/** The themes a message touches, strongest first. */
export function themesOf(text: string): Theme[] {
  const lower = text.toLowerCase()
  return themeMatchers
    .map(([theme, count]) => [theme, count(lower)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([theme]) => theme)
}

export function moodOf(text: string): Mood {
  const lower = text.toLowerCase()
  const low = lowMatcher(lower) + (NEGATED_HIGH.test(lower) ? 2 : 0)
  const high = NEGATED_HIGH.test(lower) ? 0 : highMatcher(lower)
  if (low > high) return 'low'
  if (high > low) return 'high'
  return /[?？]\s*$/u.test(text.trim()) || /^(how|what|why|should|could|can|would|is|do|does|am)\b/i.test(text.trim()) ? 'asking' : 'neutral'
}

/** "Mei (close friend)" → "Mei": the name the person knows them by. */
const personName = (entry: string) => entry.replace(/\s*[(（].*$/u, '').trim()

function namedIn(text: string, people: string[]): string | null {
  const lower = text.toLowerCase()
  for (const name of people.map(personName).filter(Boolean)) {
    const needle = name.toLowerCase()
    if (HAN.test(name) ? lower.includes(needle) : new RegExp(`(?<![\\p{L}])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'iu').test(lower))
      return name
  }
  return null
}

/**
 * A short piece of the person's own words to bring back: the first clause, cut to a few words (a few more
 * characters in Chinese), without closing punctuation.
 */
export function shortPiece(text: string, words = 6, { clause = true } = {}): string {
  const ends = clause ? /(?<=[.!?;。！？；])\s*|[,，、:：—]\s*/u : /(?<=[.!?;。！？；])\s*/u
  const first = text.replace(/\s+/g, ' ').trim().split(ends).find((part) => part.trim()) ?? ''
  const trimmed = first.replace(/[.!?;。！？；]+$/u, '').trim()
  if (HAN.test(trimmed) && (trimmed.match(HAN_ALL)?.length ?? 0) > trimmed.split(' ').length) {
    const chars = Array.from(trimmed)
    return chars.length <= words * 2 ? trimmed : `${chars.slice(0, words * 2).join('')}…`
  }
  const list = trimmed.split(' ')
  return list.length <= words ? trimmed : `${list.slice(0, words).join(' ')}…`
}

/** The sentences of a reply, as the no-repeat rule compares them. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?。！？])["”」]?\s*/u)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
}

// FNV-1a: a stable number from the text, so the choice of wording follows the conversation and not the clock.
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/** Picks from pools in order, starting at a seeded place, skipping whatever was said within the window. */
class Wording {
  private readonly said: Set<string>
  constructor(earlier: string[], private readonly seed: number) {
    this.said = new Set(earlier.slice(-REPEAT_WINDOW).flatMap(sentencesOf))
  }
  pick<T>(pool: T[], render: (entry: T) => string, salt: number): string | null {
    for (let i = 0; i < pool.length; i++) {
      const text = render(pool[(this.seed + salt + i) % pool.length])
      const parts = sentencesOf(text)
      if (parts.some((p) => this.said.has(p))) continue
      parts.forEach((p) => this.said.add(p))
      return text
    }
    return null
  }
}

function tooShort(said: string): boolean {
  return HAN.test(said) ? (said.match(HAN_ALL)?.length ?? 0) < 4 : said.split(' ').filter((w) => /\p{L}/u.test(w)).length < 3
}

const ENGLISH_VOICE: [RegExp, string][] = [
  [/\bI am\b/g, 'you are'],
  [/\bI'm\b/g, "you're"],
  [/\bI\b/g, 'you'],
  [/\bmyself\b/gi, 'yourself'],
  [/\bmy\b/gi, 'your'],
  [/\bme\b/gi, 'you'],
  [/\bmine\b/gi, 'yours'],
]

/**
 * The person's description of their ideal self or goal, said back to them in the companion's voice: their
 * "my"/"I" become "your"/"you" in English, and the first letter drops to lower case mid-sentence.
 */
export function inTheirTerms(piece: string, language: Language): string {
  if (language !== 'en-US') return piece
  const turned = ENGLISH_VOICE.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), piece)
  // "Calm" and "A steady…" lose their capital; "NASA" or a name such as "Mei's…" would read wrong either way and stay.
  return /^(?:A\s|An\s|The\s|[A-Z][a-z]+\b(?!'s))/.test(turned) ? turned[0].toLowerCase() + turned.slice(1) : turned
}

/** Whether something the person wrote is in the reply's language, so a reply never mixes two. */
const writtenIn = (text: string, language: Language) => HAN.test(text) === (language !== 'en-US')

export function companionGreeting(context: PersonContext, language: Language): string {
  return COMPANION_TEXTS[language].greeting(context.name, context.idealSelf && shortPiece(context.idealSelf, 10, { clause: false }))
}

export function companionReply(input: CompanionInput): string {
  const { context, said, language, turn } = input
  const texts: CompanionTexts = COMPANION_TEXTS[language]
  const words = new Wording(input.earlier, hash(`${turn}:${said}:${context.name ?? ''}`))
  const name = context.name
  // The name opens a reply now and then, not every time.
  const addressed = turn % 3 === 1 ? name : undefined
  const join = (parts: (string | null)[]) => parts.filter(Boolean).join(texts.space)

  if (!said && input.sentImages) return join([words.pick(texts.imageOnly, (f) => f(addressed ?? name), 0)]) || texts.imageOnly[0](name)
  if (!said) return companionGreeting(context, language)
  if (tooShort(said)) return join([words.pick(texts.nudge, (f) => f(addressed), 0), words.pick(texts.question, (q) => q, 7)]) || texts.nudge[0](name)

  const mood = moodOf(said)
  const themes = themesOf(said)
  const theme = themes[0]
  const people = context.people ?? []
  const named = namedIn(said, people)
  // When the reply should address them by name, the wordings that take a name come first.
  const pool = texts.acknowledge[mood]
  const byName = addressed ? words.pick(pool.filter((f) => f.length > 0), (f) => f(addressed), 1) : null
  const sentences: (string | null)[] = [byName ?? words.pick(pool, (f) => f(addressed), 1)]

  if (named) sentences.push(words.pick(texts.personNamed, (f) => f(named), 2))
  // The theme lines speak to a struggle; good news is met as good news.
  else if (theme && mood !== 'high') sentences.push(words.pick(texts.theme[theme], (s) => s, 3))

  // One thing they shared in onboarding, taking turns between what is known, so the conversation builds on it.
  const ideal = context.idealSelf && writtenIn(context.idealSelf, language) ? inTheirTerms(shortPiece(context.idealSelf, 10, { clause: false }), language) : null
  const goal = context.goal && writtenIn(context.goal, language) ? inTheirTerms(shortPiece(context.goal, 10, { clause: false }), language) : null
  const story = (context.story ?? []).filter((s) => s.trim() && writtenIn(s, language))
  const others = people.map(personName).filter((p) => p && p !== named)
  const memories: (() => string | null)[] = [
    ...(ideal ? [() => words.pick(texts.idealSelf, (f) => f(ideal), 4)] : []),
    ...(story.length ? [() => words.pick(texts.story, (f) => f(shortPiece(story[(turn >> 1) % story.length])), 5)] : []),
    ...(others.length && mood !== 'high' ? [() => words.pick(texts.personOffered, (f) => f(others[turn % others.length]), 6)] : []),
    ...(goal ? [() => words.pick(texts.goal, (f) => f(goal), 7)] : []),
  ]
  if (memories.length) sentences.push(memories[turn % memories.length]())

  if (mood !== 'high') sentences.push(words.pick([...(theme ? texts.step[theme] : []), ...texts.step.any], (s) => s, theme ? 0 : 8))
  const body = join(sentences)
  const question = words.pick(texts.question, (q) => q, 9)
  return question ? `${body}\n\n${question}` : body
}
