// How memories and messages are split into search terms. PostgreSQL's parsers keep a run of Chinese characters as
// one "word", so 我妹妹下個月去台北 would only ever match itself; overlapping character pairs (台北, 北馬, 馬拉 …)
// make any shared two-character word match. Everything else is left to the english configuration (stemming, stop
// words), which passes the pairs through unchanged.

const HAN_RUN = /\p{Script=Han}+/gu
const WORD = /[\p{Script=Han}]+|[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu

/** Words the english configuration drops anyway, plus chat filler that would match every memory. */
const IGNORED = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it its ' +
    'just me my mine myself no not of on or our she so some than that the their them then there they this to too us was we ' +
    'were what when where which who why will with would you your yours im ive id ill dont cant really very also about okay ok ' +
    'yes yeah hi hello hey thanks thank please today now'
  ).split(' '),
)

/** Overlapping pairs of a Chinese run; a single character stays as it is. */
export function hanBigrams(run: string): string[] {
  const chars = [...run]
  if (chars.length < 2) return chars
  const pairs: string[] = []
  for (let i = 0; i < chars.length - 1; i++) pairs.push(chars[i] + chars[i + 1])
  return pairs
}

/** The text stored in memories.search_text: Chinese runs replaced by their pairs, the rest unchanged. */
export function searchText(text: string): string {
  return text.normalize('NFKC').replace(HAN_RUN, (run) => ` ${hanBigrams(run).join(' ')} `).replace(/\s+/g, ' ').trim()
}

/** The distinct terms of a message worth searching for, in order of appearance. */
export function queryTerms(text: string, max = 48): string[] {
  const terms = new Set<string>()
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    if (/\p{Script=Han}/u.test(word)) {
      for (const pair of hanBigrams(word)) if ([...pair].length === 2) terms.add(pair)
    } else {
      const plain = word.replace(/['’].*$/, '')
      if (plain.length > 1 && !IGNORED.has(plain) && !/^\d{1,2}$/.test(plain)) terms.add(plain)
    }
    if (terms.size >= max) break
  }
  return [...terms].slice(0, max)
}

/**
 * A to_tsquery text matching any of the terms. Terms hold only letters and digits (see WORD), so nothing in them
 * is query syntax; each is still quoted so the english configuration normalises it like the stored text.
 */
export function anyTermQuery(terms: string[]): string {
  return terms.map((t) => `'${t}'`).join(' | ')
}
