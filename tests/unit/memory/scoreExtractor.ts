// Scores an extractor on a labelled set: a found memory is right when an expected one of the same kind (and person,
// when the label names one) is still unmatched in that message.
import type { Case, Expected, Lang } from './ruleExtractorCases'

export interface Score {
  cases: number
  precision: number
  recall: number
  misses: string[]
}

export function scoreExtractor(cases: Case[], extract: (text: string) => { kind: string; personName: string | null }[]): Record<Lang, Score> {
  const tally: Record<string, { cases: number; found: number; right: number; expected: number; misses: string[] }> = {}
  for (const [lang, text, expected] of cases) {
    const t = (tally[lang] ??= { cases: 0, found: 0, right: 0, expected: 0, misses: [] })
    t.cases++
    const open: Expected[] = [...expected]
    const found = extract(text)
    t.found += found.length
    t.expected += expected.length
    for (const memory of found) {
      const i = open.findIndex((x) => x.kind === memory.kind && (!x.person || x.person === memory.personName))
      if (i >= 0) {
        open.splice(i, 1)
        t.right++
      } else t.misses.push(`extra ${memory.kind}/${memory.personName ?? '-'}: ${text}`)
    }
    for (const x of open) t.misses.push(`missed ${x.kind}/${x.person ?? '-'}: ${text}`)
  }
  return Object.fromEntries(
    Object.entries(tally).map(([lang, t]) => [
      lang,
      { cases: t.cases, precision: t.found ? t.right / t.found : 1, recall: t.expected ? t.right / t.expected : 1, misses: t.misses },
    ]),
  ) as Record<Lang, Score>
}
