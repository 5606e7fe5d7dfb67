// Which language and script a reply is written in: English, Traditional Chinese (Taiwan) or Simplified Chinese.
// Stricter than the app's own guess (api/llm/language.ts), which only picks an answer language for a message: here
// every Han character counts, so a Traditional reply with Simplified characters in it shows as mixed.
import * as OpenCC from 'opencc-js'
import type { Language } from '../api/llm/language'

const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' })
const toSimplified = OpenCC.Converter({ from: 'tw', to: 'cn' })

// Characters that both scripts write the same way in everyday Taiwanese and mainland text, although the
// converters map them (台 → 臺, 着/著, 里/裡 in 公里 …): they prove neither script.
const SHARED = new Set(Array.from('台才里干后面只系松准征余周制冲布表志范发云借於于游咸折丑卷几划历夸尽凶采谷托岳恶斗'))

const HAN = /\p{Script=Han}/u
const LATIN_WORD = /\p{Script=Latin}+/gu
const KANA_OR_HANGUL = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** `chinese`: Chinese with no character that tells the scripts apart; `mixed-chinese`: characters of both scripts. */
export type Detected = Language | 'chinese' | 'mixed-chinese' | 'other' | 'none'

export interface ScriptReading {
  language: Detected
  han: number
  latinWords: number
  /** Han characters only Traditional writing uses (the Simplified converter changes them). */
  traditional: string[]
  /** Han characters only Simplified writing uses (the Traditional converter changes them). */
  simplified: string[]
}

const cache = new Map<string, 'T' | 'S' | null>()

/** 'T' for a Traditional-only character, 'S' for a Simplified-only one, null when it is written the same in both. */
export function scriptOf(char: string): 'T' | 'S' | null {
  const known = cache.get(char)
  if (known !== undefined) return known
  let script: 'T' | 'S' | null = null
  if (HAN.test(char) && !SHARED.has(char)) {
    const asSimplified = toSimplified(char)
    const asTraditional = toTraditional(char)
    if (asSimplified !== char && asTraditional === char) script = 'T'
    else if (asTraditional !== char && asSimplified === char) script = 'S'
  }
  cache.set(char, script)
  return script
}

/** Reads `text` (links and emoji aside). Chinese with characters of both scripts is `mixed-chinese`. */
export function readScript(text: string): ScriptReading {
  const plain = text.replace(/https?:\/\/\S+/g, ' ')
  const chars = Array.from(plain)
  const hanChars = chars.filter((c) => HAN.test(c))
  const latinWords = plain.match(LATIN_WORD)?.length ?? 0
  const traditional: string[] = []
  const simplified: string[] = []
  for (const c of hanChars) {
    const script = scriptOf(c)
    if (script === 'T') traditional.push(c)
    else if (script === 'S') simplified.push(c)
  }
  const reading = { han: hanChars.length, latinWords, traditional, simplified }
  if (!/\p{L}/u.test(plain)) return { ...reading, language: 'none' }
  if (KANA_OR_HANGUL.test(plain)) return { ...reading, language: 'other' }
  // A Chinese reply may carry an English word or name, an English one a Chinese name: the bulk decides.
  if (hanChars.length === 0 || hanChars.length < latinWords) {
    return { ...reading, language: /[\p{Script=Latin}]/u.test(plain) && isEnglishLike(plain) ? 'en-US' : 'other' }
  }
  if (traditional.length && simplified.length) return { ...reading, language: 'mixed-chinese' }
  if (simplified.length) return { ...reading, language: 'zh-CN' }
  if (traditional.length) return { ...reading, language: 'zh-TW' }
  // Chinese that uses no distinguishing character at all (「你好」) cannot be told apart; it counts for both.
  return { ...reading, language: 'chinese' }
}

// Common English function words: Latin-script text without any of them is some other language (Spanish, pinyin …).
const ENGLISH_WORDS = new Set(
  'the a an and or but is are was were be been i you he she it we they me my your our their to of in on at for with that this what how why not do does did can will would have has had so if just'.split(' '),
)

function isEnglishLike(text: string): boolean {
  const words = text.toLowerCase().match(/\p{Script=Latin}+/gu) ?? []
  if (words.length < 3) return true
  return words.filter((w) => ENGLISH_WORDS.has(w)).length / words.length >= 0.12
}

/** Whether a reading is in `language`: Chinese that shows no script counts for either Chinese. */
export function isWrittenIn(reading: ScriptReading, language: Language): boolean {
  if (reading.language === language) return true
  return language !== 'en-US' && reading.language === 'chinese'
}

/** Text folded to one script, for matching names and words whichever script a reply uses. */
export const foldScript = (text: string) => toTraditional(text.normalize('NFKC')).toLowerCase()
