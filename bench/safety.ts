// Crisis detection on the labelled corpus (tests/unit/chat/safety): recall and false alarms per language and per
// category with no model (rules and the lexical layer), the held-out sets, a leave-one-set-out run of the lexical
// layer, and the time one assessment takes. `npx bun bench/safety.ts` prints Markdown; `--quick` skips
// leave-one-set-out; `--misses` lists what was missed or raised wrongly.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_FILES, EVERYDAY_FILES, loadCorpus, scoreCorpus, type LabelledMessage } from '../tests/unit/chat/safety/corpus'
import { assessMessage } from '../api/chat/safety/detect'
import { train } from '../scripts/trainCrisisModel'

const showMisses = process.argv.includes('--misses')
const pct = (x: number) => `${(x * 100).toFixed(1)} %`
const LANGS = ['en', 'zh-TW', 'zh-CN'] as const

function byLanguage(corpus: LabelledMessage[], flagged: (m: LabelledMessage) => boolean) {
  return LANGS.map((lang) => {
    const group = corpus.filter((m) => m.lang === lang)
    const crisis = group.filter((m) => m.label === 'crisis')
    const ordinary = group.filter((m) => m.label === 'ordinary')
    const hits = crisis.filter(flagged).length
    const alarms = ordinary.filter(flagged).length
    return { lang, crisis: crisis.length, recall: crisis.length ? hits / crisis.length : 1, ordinary: ordinary.length, alarms }
  })
}

const all = loadCorpus()
console.log(`### Whole corpus (${all.length} messages; the rules and weights were written against it)\n`)
console.log('| language | crisis | recall | ordinary | false alarms |')
console.log('|---|---|---|---|---|')
for (const lang of LANGS) {
  const s = scoreCorpus(all.filter((m) => m.lang === lang))
  console.log(`| ${lang} | ${s.crisis} | ${pct(s.recall)} | ${s.ordinary} | ${pct(s.falseAlarmRate)} (${s.falseAlarms.length}) |`)
  if (showMisses) for (const line of [...s.misses.map((m) => `MISS ${m}`), ...s.falseAlarms.map((m) => `FALSE ${m}`)]) console.error(`  ${lang} ${line}`)
}
console.log('\n| category | label | messages | flagged |')
console.log('|---|---|---|---|')
for (const key of [...new Set(all.map((m) => `${m.label}\t${m.category}`))].sort()) {
  const [label, category] = key.split('\t')
  const s = scoreCorpus(all.filter((m) => m.label === label && m.category === category))
  console.log(`| ${category} | ${label} | ${s.crisis + s.ordinary} | ${pct(label === 'crisis' ? s.recall : s.falseAlarmRate)} |`)
}
const everyday = loadCorpus(EVERYDAY_FILES)
const everydayAlarms = everyday.filter((m) => assessMessage(m.text).level === 'crisis').length
console.log(`\nPlain companion chat (${everyday.length} messages): ${everydayAlarms} raised (${pct(everydayAlarms / everyday.length)}).`)

// Sets kept out of the corpus and the rules on purpose (tests/unit/chat/safety/heldOut): wording nobody wrote a rule or
// a weight from, read as a new user's messages would be.
const heldOutDir = join(import.meta.dirname, '../tests/unit/chat/safety/heldOut')
console.log('\n### Held-out sets (never in the corpus or the rules)\n')
console.log('| set | en recall / false alarms | zh-TW | zh-CN |')
console.log('|---|---|---|---|')
for (const file of readdirSync(heldOutDir).filter((f) => f.endsWith('.json')).sort()) {
  const set = JSON.parse(readFileSync(join(heldOutDir, file), 'utf8')) as LabelledMessage[]
  const rows = byLanguage(set, (m) => assessMessage(m.text).level === 'crisis')
  console.log(`| ${file.replace(/\.json$/, '')} | ${rows.map((r) => `${pct(r.recall)} / ${pct(r.ordinary ? r.alarms / r.ordinary : 0)}`).join(' | ')} |`)
}

// Leave one set out: the lexical layer trained without the set, then the set read with the rules and those weights.
console.log('\n### Leave one set out (lexical weights trained without the set; the rules are not held out)\n')
console.log('| set | en recall / false alarms | zh-TW | zh-CN |')
console.log('|---|---|---|---|')
for (const held of process.argv.includes('--quick') ? [] : CORPUS_FILES) {
  const weights = train(loadCorpus([...CORPUS_FILES.filter((f) => f !== held), ...EVERYDAY_FILES]))
  const rows = byLanguage(loadCorpus([held]), (m) => assessMessage(m.text, weights).level === 'crisis')
  console.log(`| ${held.replace(/\.json$/, '')} | ${rows.map((r) => `${pct(r.recall)} / ${pct(r.ordinary ? r.alarms / r.ordinary : 0)}`).join(' | ')} |`)
}

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
