// Trains the lexical layer of crisis detection (api/chat/safety/lexicalModel.ts) on the labelled corpus and
// writes its weights. `npx bun scripts/trainCrisisModel.ts` after the corpus or the rules' normalisation change;
// bench/safety.ts measures it on sets it was not trained on.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadCorpus, CORPUS_FILES, EVERYDAY_FILES, type LabelledMessage } from '../tests/unit/chat/safety/corpus'
import { lexicalFeatures, type LexicalWeights } from '../api/chat/safety/lexicalModel'

/** Full-batch gradient descent on L2-regularised logistic loss; deterministic (no shuffling, zero start). */
export function train(messages: LabelledMessage[], opts = { epochs: 1500, rate: 0.5, l2: 0.0002, minCount: 2 }): LexicalWeights {
  const rows = messages.map((m) => ({ features: lexicalFeatures(m.text), y: m.label === 'crisis' ? 1 : 0 }))
  const counts = new Map<string, number>()
  for (const row of rows) for (const f of row.features) counts.set(f, (counts.get(f) ?? 0) + 1)
  const kept = [...counts].filter(([, n]) => n >= opts.minCount).map(([f]) => f)
  const index = new Map(kept.map((f, i) => [f, i]))
  const xs = rows.map((row) => row.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined))
  const w = new Float64Array(kept.length)
  let bias = 0
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const grad = new Float64Array(kept.length)
    let gBias = 0
    for (let r = 0; r < rows.length; r++) {
      let z = bias
      for (const i of xs[r]) z += w[i]
      const err = 1 / (1 + Math.exp(-z)) - rows[r].y
      gBias += err
      for (const i of xs[r]) grad[i] += err
    }
    bias -= (opts.rate * gBias) / rows.length
    for (let i = 0; i < w.length; i++) w[i] -= opts.rate * (grad[i] / rows.length + opts.l2 * w[i]) * 10
  }
  const weights: Record<string, number> = {}
  kept.forEach((f, i) => {
    if (Math.abs(w[i]) >= 0.01) weights[f] = Math.round(w[i] * 1000) / 1000
  })
  return { bias: Math.round(bias * 1000) / 1000, weights }
}

if (import.meta.main) {
  const trained = train(loadCorpus([...CORPUS_FILES, ...EVERYDAY_FILES]))
  const out = join(import.meta.dirname, '../api/chat/safety/lexicalModel.json')
  writeFileSync(out, `${JSON.stringify(trained)}\n`)
  console.log(`${Object.keys(trained.weights).length} weights written to ${out}`)
}
