// Precision and recall of the rule-based memory extractor on the labelled set, per language, and its throughput.
// Run: npx bun bench/ruleExtractor.ts
import { extractByRules } from '../api/memory/ruleExtractor'
import { scoreExtractor } from '../tests/unit/memory/scoreExtractor'
import { CASES } from '../tests/unit/memory/ruleExtractorCases'

for (const [lang, score] of Object.entries(scoreExtractor(CASES, (text) => extractByRules(text))))
  console.log(`${lang}: ${score.cases} messages, precision ${(score.precision * 100).toFixed(1)} %, recall ${(score.recall * 100).toFixed(1)} %`)

const messages = CASES.map(([, text]) => text)
const runs: number[] = []
for (let round = 0; round < 5; round++) {
  const start = performance.now()
  let n = 0
  while (performance.now() - start < 500) for (const text of messages) (extractByRules(text), n++)
  runs.push(n / ((performance.now() - start) / 1000))
}
runs.sort((a, b) => a - b)
console.log(`throughput (messages/s, 5 rounds): min ${runs[0].toFixed(0)}, median ${runs[2].toFixed(0)}, max ${runs[4].toFixed(0)}`)
