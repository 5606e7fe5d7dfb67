// A story told from the far side ("那年股票賠光，我在車裡坐了一整夜想結束一切。十二年過去了，我現在開一家早餐店") names the
// act in a time that is over. What was then is no sign of now; what is said after the turn to now is read as any
// message is, so a relapse told the same way ("two years ago I tried. today I bought a rope") is still read.
import { CHINESE } from './chineseRules'
import { ENGLISH } from './englishRules'
import { globalOf } from './globalOf'
import type { Reading } from './normalize'
import type { RuleSet } from './types'

const SENTENCE_END = /[.!?。！？;；\n]/g
// A question, in either reading (the Chinese one ends questions with 。): what is asked is asked now.
export const ASKS = /[?？]|[嗎呢](?:[。,]|$)|多少|幾(?:顆|粒|層|樓|片|包|袋)|哪(?:些|種|裡|座|棟)/

function sentenceStart(text: string, at: number): number {
  let start = 0
  for (const mark of text.slice(0, at).matchAll(SENTENCE_END)) start = mark.index + 1
  return start
}

/**
 * The text with each stretch from a time that is over ("years ago", "以前") to the turn to now ("now", "現在",
 * "十二年過去了") blanked out. Nothing is blanked when the person takes a denial back, or when what is left says it has come
 * back ("again", "又", "relapsed"): then the past is part of what is happening now. A "又" inside the story ("怕我又藏
 * 刀片") is the story's own.
 */
export function withoutFarSide(set: RuleSet, text: string): { now: string; then: string } {
  const whole = { now: text, then: '' }
  if (set.retraction.test(text)) return whole
  const thenMark = globalOf(set.recovery.then)
  const sinceMark = globalOf(set.recovery.since)
  let out = ''
  let story = ''
  let frames = ''
  let from = 0
  for (let then = thenMark.exec(text); then; then = thenMark.exec(text)) {
    if (then.index < from) continue
    sinceMark.lastIndex = then.index + then[0].length
    const since = sinceMark.exec(text)
    if (!since) break
    const start = Math.max(from, sentenceStart(text, then.index))
    out += `${text.slice(from, start)} ~ `
    // The turn ends the story where it is said: in the story's own sentence ("used to cut, but now i knit") at the
    // word, in a later sentence at that sentence's start ("…i think about it every day now" stays whole).
    const turnSentence = sentenceStart(text, since.index)
    from = turnSentence > start ? turnSentence : since.index
    story += ` ${text.slice(start, from)} `
    frames += ` ${text.slice(start, then.index)} `
    // A story that goes on to tonight or today ("used to have a coping kit. tonight I went through the whole thing"),
    // or holds a question ("…how many would it take for someone my weight now?"), is not told from the far side. What
    // comes before the time that is over is the frame ("今天整理抽屜翻到國三的日記…"), and a "tomorrow" inside the
    // story is the story's own ("…跳下去就不用再面對明天").
    if (set.recovery.lately.test(text.slice(then.index, from)) || ASKS.test(story)) return whole
    thenMark.lastIndex = since.index + since[0].length
  }
  if (from === 0) return whole
  const now = out + text.slice(from)
  // What the story's frame says is back ("昨晚又劃了，比以前深") is back too.
  return set.recovery.back.test(now) || set.recovery.back.test(frames) ? whole : { now, then: story }
}

/** The reading of what is said of now, and of the story told from the far side, in both languages. */
export function presentOf({ en, zh }: Reading): { now: Reading; then: Reading } {
  const english = withoutFarSide(ENGLISH, en)
  const chinese = withoutFarSide(CHINESE, zh)
  return { now: { en: english.now, zh: chinese.now }, then: { en: english.then, zh: chinese.then } }
}
