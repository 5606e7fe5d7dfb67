// Does a message speak of suicide or self-harm? Rules first (they must answer with no model and never fail), then
// the conversation around the message. Pure: the model's second opinion lives in secondOpinion.ts.
import { CHINESE } from './chineseRules'
import { ENGLISH } from './englishRules'
import { normalizeChinese, normalizeEnglish, readingOf, type Reading } from './normalize'
import { ASKS, presentOf } from './farSide'
import { globalOf } from './globalOf'
import { riskOf, sizeOf, type LexicalWeights } from './lexicalModel'
import type { Assessment, Category, RiskLevel, RuleSet } from './types'

const RANK: Record<RiskLevel, number> = { none: 0, uncertain: 1, crisis: 2 }
// A lone wish, thought or jump said laughing is usually a figure of speech ("i want to die lol", "im jumping out the
// window lmao"); a plan, preparations or a time never are.
const SOFTENED_BY_LAUGHTER = new Set<Category>(['passive_wish', 'hopelessness', 'active_thoughts', 'method'])


/**
 * Laughter softens a wish only where it is said: in the sentence of the wish or one beside it ("i want to die lol",
 * "tripped in front of my whole lecture. i want to die", "我想死。哈哈"), and never with a time in the wish's own
 * sentence ("i want to kill myself lol tonight"). A "lol" two sentences on ("…i wish i was dead. like properly. anyway
 * hows your day lol") leaves the wish as it was.
 */
function laughsBeside({ laughter, time }: RuleSet, normalized: string, spans: string[]): boolean {
  const sentenceStart = (at: number) => Math.max(...['.', '!', '?', '。'].map((mark) => normalized.lastIndexOf(mark, at - 1))) + 1
  const sentenceEnd = (at: number) => {
    const next = normalized.slice(at).search(/[.!?。]/)
    return next < 0 ? normalized.length : at + next + 1
  }
  for (const span of spans) {
    const at = normalized.indexOf(span.trim())
    // The span was rewritten by an ignore (it is not in the text as typed): read the whole message.
    if (at < 0) return laughter.test(normalized) && !time.test(normalized)
    const own = [sentenceStart(at), sentenceEnd(at + span.trim().length)]
    if (time.test(normalized.slice(own[0], own[1]))) continue
    const before = own[0] > 1 ? sentenceStart(own[0] - 1) : own[0]
    const after = own[1] < normalized.length ? sentenceEnd(own[1]) : own[1]
    if (laughter.test(normalized.slice(before, after))) return true
  }
  return false
}

function assessWith(set: RuleSet, normalized: string): Assessment {
  let text = normalized
  // A denial taken back ("I said no. I lied.") leaves nothing to set aside.
  const retracted = set.retraction.test(normalized)
  if (!retracted) for (const pattern of set.ignore) text = text.replace(pattern, ' ~ ')
  const setAside = text !== normalized
  const topical = set.topicMarkers.some((marker) => marker.test(normalized))
  // Taken back, an innocent reason given for it ("a rope for camping — I don't camp") no longer counts either.
  const live = set.rules.filter((rule) => !(rule.topic && topical) && (retracted || !rule.unless?.test(normalized)))
  const matched = live.filter((rule) => rule.pattern.test(text))
  // Separate risk phrases, counted across rules: "whats the point of trying" and "i give up" are two signals;
  // two rules matching overlapping words ("撐不住了" and "撐不住") are one.
  const spans = live
    .filter((rule) => rule.strength === 'risk')
    .flatMap((rule) => [...text.matchAll(globalOf(rule.pattern))].map((m) => [m.index, m.index + m[0].length] as const))
    .sort((a, b) => a[0] - b[0])
  // Taking back a denial is itself a sign: beside one risk word it makes a crisis.
  let riskSignals = retracted ? 1 : 0
  let reach = -1
  for (const [start, end] of spans) {
    if (start >= reach) riskSignals++
    reach = Math.max(reach, end)
  }
  const crisis = new Set(matched.filter((r) => r.strength === 'crisis').map((r) => r.category))
  const risk = new Set(matched.filter((r) => r.strength === 'risk').map((r) => r.category))
  const timed = set.time.test(text)
  const categories = [...new Set([...crisis, ...risk])]

  // A question asking for the means ("how many would it take for someone my weight", "吃多少會致命") is never set aside
  // by a recovery, a denial or a joke told around it ("I'm fine now, just curious"); study and fiction still are.
  const asksForMeans =
    !topical && live.some((rule) => rule.category === 'method_seeking' && rule.strength === 'crisis' && rule.pattern.test(normalized))
  if (asksForMeans) return { level: 'crisis', categories: [...new Set([...categories, 'method_seeking' as const])] }
  // A recovery told from the far side ("in 2020 I was writing goodbye letters. now I'm writing performance reviews")
  // names the act without it being here now: never help first on its own, and wording alone cannot raise it.
  const recovered =
    !retracted && set.recovery.past.test(normalized) && set.recovery.wellNow.test(normalized) && !set.recovery.back.test(normalized)
  if (recovered) return { level: 'none', categories: [], setAside: true }
  if (crisis.size) {
    const crisisSpans = matched.filter((r) => r.strength === 'crisis').map((r) => text.match(r.pattern)![0])
    const laughing =
      !set.serious.test(normalized) &&
      !retracted &&
      (set.joking.test(normalized) || laughsBeside(set, normalized, crisisSpans)) &&
      [...crisis].every((c) => SOFTENED_BY_LAUGHTER.has(c))
    if (laughing && !risk.size) return { level: 'uncertain', categories, joking: true }
    return { level: 'crisis', categories: timed ? [...categories, 'intent_timing'] : categories }
  }
  // Two separate risk signals (even of one category: "hopeless" and "no way out") are read as a crisis.
  if (riskSignals >= 2) return { level: 'crisis', categories }
  if (risk.size && timed) return { level: 'crisis', categories: [...categories, 'intent_timing'] }
  if (risk.size) return { level: 'uncertain', categories }
  return { level: 'none', categories: [], ...(setAside ? { setAside } : {}) }
}

function merge(a: Assessment, b: Assessment): Assessment {
  const level = RANK[a.level] >= RANK[b.level] ? a.level : b.level
  const joking = (a.joking && b.level !== 'crisis') || (b.joking && a.level !== 'crisis')
  const setAside = level === 'none' && (a.setAside || b.setAside)
  return { level, categories: [...new Set([...a.categories, ...b.categories])], ...(joking ? { joking: true } : {}), ...(setAside ? { setAside } : {}) }
}

// The lexical layer's thresholds, chosen on labelled sets it was not trained on (bench/safety.ts): alone it must be
// fairly sure; beside an uncertain rule, less so. 0.65 rather than 0.75 on a short message: on three sets read on
// arrival it caught 2–3 points more of the crisis messages and raised no more of the others, for 0–1 point more of
// unseen everyday chat (bench/README.md).
const LEXICAL_ALONE = 0.65
// A long message adds up many mildly low words ("Nothing is working. I've tried the budgeting app…"): past this many
// words and Chinese characters, wording alone must be surer. Measured leave-one-set-out: unseen long everyday
// messages raised 5.7 → 3.1 %, recall 96.3 → 96.0 % (bench/README.md).
const LONG_MESSAGE = 30
const LEXICAL_ALONE_LONG = 0.9
const LEXICAL_WITH_RULE = 0.5
// Wording alone that is only somewhat like a crisis is worth a model's second opinion, not a help block.
const LEXICAL_UNCERTAIN = 0.6

function rulesOf({ en, zh }: Reading): Assessment {
  return merge(assessWith(ENGLISH, en), assessWith(CHINESE, zh))
}

// What is done now beside a story of then: buying, saving, going to a place. A word like "blades" in "三年沒碰刀片" is not.
const ACTS_NOW = new Set<Category>(['method', 'plan', 'preparatory', 'method_seeking', 'intent_timing'])

/**
 * The rules on what is said of now. A story told from the far side is no sign alone, but an attempt or self-harm in
 * it beside an act now ("two years ago I tried to end it. today I bought rope") makes a crisis.
 */
function rulesOfNow(whole: Reading, { now, then }: { now: Reading; then: Reading }): Assessment {
  const present = rulesOf(now)
  // Asked now about what the story names ("以前聽說有些藥和酒一起吃會出事… 就是好奇是哪些藥？"): the means are sought now.
  if (present.level !== 'crisis' && (then.en || then.zh) && (ASKS.test(now.en) || ASKS.test(now.zh))) {
    const story = rulesOf(whole)
    if (story.level === 'crisis' && story.categories.includes('method_seeking')) return story
  }
  if (present.level !== 'uncertain' || !(then.en || then.zh) || !present.categories.some((c) => ACTS_NOW.has(c))) return present
  if (ENGLISH.recovery.wellNow.test(now.en) || CHINESE.recovery.wellNow.test(now.zh)) return present
  const story = rulesOf(then)
  return story.level !== 'none' ? { level: 'crisis', categories: [...new Set([...present.categories, ...story.categories])] } : present
}

/**
 * The rules' reading and the lexical layer's probability for a message of `size` words and Chinese characters, combined;
 * `afterStory` when what was read follows a story told from the far side.
 */
export function combineLayers(rules: Assessment, lexical: number, size = 0, afterStory = false): Assessment {
  if (rules.level === 'crisis' || rules.joking) return rules
  const categories = rules.categories.length ? rules.categories : (['active_thoughts'] as Category[])
  // What follows a story told from the far side ("…but now i just knit when it gets loud in my head") keeps the
  // story's wording: alone it must be as sure as in a long message.
  const alone = size > LONG_MESSAGE || afterStory ? LEXICAL_ALONE_LONG : LEXICAL_ALONE
  // A denial or figure of speech the rules set aside is not overruled by wording alone.
  if ((lexical >= alone && !rules.setAside) || (rules.level === 'uncertain' && lexical >= LEXICAL_WITH_RULE))
    return { level: 'crisis', categories }
  if (rules.level === 'uncertain' || lexical >= LEXICAL_UNCERTAIN) return { level: 'uncertain', categories }
  return { level: 'none', categories: [] }
}

/**
 * One message on its own, in English, Traditional or Simplified Chinese (or a mix). `weights` are the lexical layer's
 * shipped ones unless bench/safety.ts reads a set with weights trained without it.
 */
export function assessMessage(text: string, weights?: LexicalWeights): Assessment {
  const whole = readingOf(text)
  const told = presentOf(whole)
  const reading = told.now
  const rules = rulesOfNow(whole, told)
  const afterStory = Boolean(told.then.en || told.then.zh)
  return combineLayers(rules, rules.level === 'crisis' ? 0 : riskOf(reading, weights), sizeOf(reading), afterStory)
}

export interface TurnContext {
  /** The person's previous message in this conversation, if any. */
  previousUserText?: string
  /** The companion's last reply, and whether it carried the help block. */
  previousReplyText?: string
  previousReplyHadHelp?: boolean
}

// The companion asking whether the person is safe or thinking of ending their life.
const SAFETY_QUESTION =
  /\b(?:are you safe|you safe right now|are you (?:thinking|having thoughts) (?:about|of) (?:suicide|ending|killing|hurting|harming|dying)|(?:thoughts|thinking) (?:of|about) (?:ending your life|killing yourself|suicide|hurting yourself)|do you (?:have|feel) (?:a plan|like hurting)|have you (?:hurt|harmed) yourself|thinking of hurting yourself)\b|(?:你|妳)?(?:現在|现在)?(?:安全嗎|安全吗|是否安全)|(?:有沒有|有没有|是不是|是否|會不會|会不会)(?:想|想過|想过|在想)?(?:要)?(?:自殺|自杀|傷害自己|伤害自己|結束生命|结束生命|輕生|轻生)|(?:計畫|計劃|计划)嗎/i

const SHORT_YES_EN =
  /^(?:yes|yeah|yea|ya|yep|yup|yess|ye|y|ive|i do|im|i did|ill|i might|i think so|i guess|kind of|kinda|sort of|maybe|probably|possibly|sometimes|often|always|a lot|a little|a bit|all the time|every day|every night|constantly|tonight|today|tomorrow|soon|right now|now|this weekend|this week|true|exactly|correct|right|uh huh|mhm|mm|hmm yes|not sure|idk|i dont know|dont know|honestly yes|yes im|yes i do|yes ive|ive one|ive a plan|ive got one|ive got a plan|pills|the pills|rope|the bridge|the roof|i already did|already|did it|too late|its too late)(?: (?:i think|honestly|tbh|lol|again|already|i guess|sadly|unfortunately|maybe))*$/
const SHORT_YES_ZH =
  /^(?:對|对|是|是的|是啊|對啊|对啊|有|有啊|有吧|有想過|有想过|有一點|有一点|一點點|一点点|嗯+|恩+|會|会|會吧|会吧|想|想過|想过|要|今晚|今天|明天|等一下|週末|周末|好像|應該|应该|可能|也許|也许|或許|或许|一直|常常|每天|有時候|有时候|不知道|算是|大概|真的|沒錯|没错|對吧|对吧|準備好了|准备好了|已經|已经|已經做了|已经做了|藥|药|都想好了)[了吧啊呀喔哦嗯。,.!！…~]*$/

/** A short answer that says yes, names a time, or only half-denies. */
export function isShortAffirmation(text: string): boolean {
  const en = normalizeEnglish(text).replace(/[^\p{L}\p{N} ]/gu, ' ').replace(/\s+/g, ' ').trim()
  if (en && en.split(' ').length <= 8 && SHORT_YES_EN.test(en)) return true
  const zh = normalizeChinese(text)
  return zh.length <= 12 && SHORT_YES_ZH.test(zh)
}

export function asksAboutSafety(reply: string): boolean {
  return SAFETY_QUESTION.test(reply.toLowerCase())
}

/**
 * A message in its conversation: a short "yes" or "tonight" right after the companion asked about safety, or
 * after the person's own concerning message, counts; so does an uncertain message in that position.
 */
export function assessTurn(text: string, context: TurnContext = {}): Assessment {
  const own = assessMessage(text)
  if (own.level === 'crisis') return own
  const previous = context.previousUserText ? assessMessage(context.previousUserText) : null
  const asked = Boolean(context.previousReplyHadHelp) || (context.previousReplyText ? asksAboutSafety(context.previousReplyText) : false)
  const concerning = asked || (previous !== null && previous.level !== 'none')
  if (!concerning) return own
  const carried = [...new Set([...(previous?.categories ?? []), ...own.categories])]
  if (own.level === 'uncertain') return { level: 'crisis', categories: carried }
  if (isShortAffirmation(text)) return { level: 'crisis', categories: carried.length ? carried : ['active_thoughts'] }
  return own
}
