// Which scripts a person writes in, by letters: Traditional and Simplified Chinese, Japanese, English, other.
import { replyLanguage } from '../../llm/language'

export interface LanguageMix {
  traditionalChinese: number
  simplifiedChinese: number
  japanese: number
  english: number
  other: number
}

export const LANGUAGE_LABELS: Record<keyof LanguageMix, string> = {
  traditionalChinese: 'Traditional Chinese',
  simplifiedChinese: 'Simplified Chinese',
  japanese: 'Japanese',
  english: 'English',
  other: 'other',
}

const HAN = /\p{Script=Han}/gu
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu
const LATIN = /\p{Script=Latin}/gu
const LETTER = /\p{L}/gu

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0

/**
 * Shares of the letters (summing to 1, or all 0 without letters); emoji, digits and punctuation do not count.
 * A message with kana is Japanese, kanji included. Chinese is told apart by the characters whose two forms differ
 * (the table behind replyLanguage); a message using none of them is split like the rest of the person's Chinese,
 * and Chinese that never tells falls to Traditional, the product's default language.
 */
export function languageMix(texts: Iterable<string>): LanguageMix {
  const letters = { traditionalChinese: 0, simplifiedChinese: 0, japanese: 0, english: 0, other: 0 }
  let undecidedChinese = 0
  for (const text of texts) {
    const all = count(text, LETTER)
    if (!all) continue
    const latin = count(text, LATIN)
    letters.english += latin
    if (count(text, KANA)) {
      letters.japanese += all - latin
      continue
    }
    const han = text.match(HAN)?.join('') ?? ''
    const hanLength = han ? Array.from(han).length : 0
    letters.other += all - latin - hanLength
    if (!hanLength) continue
    // replyLanguage settles a tie with its fallback: asking with both fallbacks shows whether the text decided.
    const asTraditional = replyLanguage(han, 'zh-TW')
    if (asTraditional !== replyLanguage(han, 'zh-CN')) undecidedChinese += hanLength
    else if (asTraditional === 'zh-CN') letters.simplifiedChinese += hanLength
    else letters.traditionalChinese += hanLength
  }
  const decided = letters.traditionalChinese + letters.simplifiedChinese
  const traditionalShare = decided ? letters.traditionalChinese / decided : 1
  letters.traditionalChinese += undecidedChinese * traditionalShare
  letters.simplifiedChinese += undecidedChinese * (1 - traditionalShare)

  const total = Object.values(letters).reduce((a, b) => a + b, 0)
  const share = (n: number) => (total ? Math.round((n / total) * 1000) / 1000 : 0)
  return {
    traditionalChinese: share(letters.traditionalChinese),
    simplifiedChinese: share(letters.simplifiedChinese),
    japanese: share(letters.japanese),
    english: share(letters.english),
    other: share(letters.other),
  }
}
