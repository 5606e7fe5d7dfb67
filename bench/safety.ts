// Crisis detection on the labelled corpus (tests/unit/chat/safety): recall and false alarms per language and per
// category, with no model (the rules and nothing else), plus the time one assessment takes.
// `npx bun bench/safety.ts` prints a Markdown table; `--misses` lists what was missed or raised wrongly.
import { CORPUS_FILES, loadCorpus, scoreCorpus, type LabelledMessage } from '../tests/unit/chat/safety/corpus'
import { assessMessage } from '../api/chat/safety/detect'

const showMisses = process.argv.includes('--misses')
const pct = (x: number) => `${(x * 100).toFixed(1)} %`

function table(title: string, corpus: LabelledMessage[]) {
  console.log(`\n### ${title} (${corpus.length} messages)\n`)
  console.log('| language | crisis | recall | ordinary | false alarms |')
  console.log('|---|---|---|---|---|')
  for (const lang of ['en', 'zh-TW', 'zh-CN'] as const) {
    const s = scoreCorpus(corpus.filter((m) => m.lang === lang))
    console.log(`| ${lang} | ${s.crisis} | ${pct(s.recall)} | ${s.ordinary} | ${pct(s.falseAlarmRate)} (${s.falseAlarms.length}) |`)
    if (showMisses) for (const line of [...s.misses.map((m) => `MISS ${m}`), ...s.falseAlarms.map((m) => `FALSE ${m}`)]) console.error(`  ${lang} ${line}`)
  }
  console.log('\n| category | label | messages | flagged |')
  console.log('|---|---|---|---|')
  const categories = [...new Set(corpus.map((m) => `${m.label}\t${m.category}`))].sort()
  for (const key of categories) {
    const [label, category] = key.split('\t')
    const group = corpus.filter((m) => m.label === label && m.category === category)
    const s = scoreCorpus(group)
    const flagged = label === 'crisis' ? s.recall : s.falseAlarmRate
    console.log(`| ${category} | ${label} | ${group.length} | ${pct(flagged)} |`)
  }
}

const all = loadCorpus()
table('Both sets', all)
for (const file of CORPUS_FILES) table(file, loadCorpus([file]))

// Time per message: three runs over the whole corpus, after a warm-up.
for (const m of all) assessMessage(m.text)
const runs: number[] = []
for (let round = 0; round < 3; round++) {
  const started = performance.now()
  for (const m of all) assessMessage(m.text)
  runs.push(((performance.now() - started) * 1000) / all.length)
}
runs.sort((a, b) => a - b)
console.log(`\nµs per message (min / median / max of 3 runs over the corpus): ${runs.map((r) => r.toFixed(0)).join(' / ')}`)
