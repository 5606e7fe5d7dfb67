// The phrases a person keeps coming back to: word n-grams in alphabetic writing, character n-grams in Chinese
// and Japanese (which have no spaces to split words on).

export interface Phrase {
  text: string
  /** How many messages use it. */
  count: number
}

// Words too common to say anything on their own; in longer phrases they are kept ("see you", "on my way").
const STOPWORDS = new Set(
  [
    'a an the i me my you your we our us he him his she her it its they them their is am are was were be been has have had',
    'to of in on at for from by up out about into over and or but so if then than that this these those there here with as',
    'do does did not no yes just all can will would could should what when where who how which one get got',
  ].join(' ').split(' '),
)

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+/gu
// Words may carry an apostrophe inside (don't, I'm); anything else ends a clause.
const CLAUSE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?(?:\s+[\p{L}\p{N}]+(?:['’][\p{L}]+)?)*/gu
const NON_CJK_LETTER = /[\p{L}\p{N}]/u

// Long enough for a set phrase ("今天好累喔", "see you in a bit"); longer repeats are rare outside copy-paste.
const MAX_CJK = 6
const MAX_WORDS = 4

function cjkGrams(run: string, into: Set<string>) {
  const chars = Array.from(run)
  for (let n = 2; n <= MAX_CJK; n++) for (let i = 0; i + n <= chars.length; i++) into.add(chars.slice(i, i + n).join(''))
}

function wordGrams(clause: string, into: Set<string>) {
  const words = clause.toLowerCase().split(/\s+/)
  for (let n = 1; n <= MAX_WORDS; n++)
    for (let i = 0; i + n <= words.length; i++) {
      const gram = words.slice(i, i + n)
      if (gram.every((w) => STOPWORDS.has(w))) continue
      if (n === 1 && (gram[0].length < 3 || /^\d+$/.test(gram[0]))) continue
      into.add(gram.join(' '))
    }
}

/** Every phrase candidate in one message, each once. */
export function phrasesOf(text: string): Set<string> {
  const grams = new Set<string>()
  for (const [run] of text.matchAll(CJK_RUN)) cjkGrams(run, grams)
  const rest = text.replace(CJK_RUN, ' ')
  if (NON_CJK_LETTER.test(rest)) for (const [clause] of rest.matchAll(CLAUSE)) wordGrams(clause, grams)
  return grams
}

const contains = (longer: string, shorter: string) =>
  longer.length > shorter.length && (/\s/.test(longer) ? ` ${longer} `.includes(` ${shorter} `) : longer.includes(shorter))

/**
 * The most used phrases, by the number of messages using them (at least `minCount`). A phrase that only ever
 * appears inside a longer one with the same count is that longer phrase, so only the longer one is kept.
 */
export function topPhrases(texts: Iterable<string>, limit = 10, minCount = 2): Phrase[] {
  const counts = new Map<string, number>()
  for (const text of texts) for (const gram of phrasesOf(text)) counts.set(gram, (counts.get(gram) ?? 0) + 1)
  const frequent = [...counts].filter(([, n]) => n >= minCount).sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
  const sameCount = new Map<number, string[]>()
  for (const [text, n] of frequent) {
    const group = sameCount.get(n)
    if (group) group.push(text)
    else sameCount.set(n, [text])
  }
  const kept: Phrase[] = []
  for (const [text, count] of frequent) {
    if (sameCount.get(count)!.some((other) => contains(other, text))) continue
    kept.push({ text, count })
    if (kept.length === limit) break
  }
  return kept
}
