// The second rule layer: a small logistic-regression model over words and character pairs, trained offline on the
// labelled corpus (scripts/trainCrisisModel.ts) and shipped as weights. It reads wording the hand-written rules
// do not name ("the pills are in my bag, the hotel is booked") the way the corpus taught it. Pure and local: no
// model server is involved, so it works with no model configured.
import { CHINESE } from './chineseRules'
import { ENGLISH } from './englishRules'
import { presentOf } from './farSide'
import { readingOf, type Reading } from './normalize'
import weights from './lexicalModel.json'

/** The text with denials and figures of speech taken out, as the rules see it. */
function withoutIgnored(text: string, ignore: RegExp[]): string {
  let out = text
  for (const pattern of ignore) out = out.replace(pattern, ' ~ ')
  return out
}

/** Words and word pairs of the English reading, character pairs and triples of the Chinese one. */
export function lexicalFeatures(text: string): string[] {
  return featuresOf(presentOf(readingOf(text)).now)
}

function featuresOf({ en, zh }: Reading): string[] {
  const features = new Set<string>()
  const words = withoutIgnored(en, ENGLISH.ignore).match(/[a-z0-9~]+/g) ?? []
  for (let i = 0; i < words.length; i++) {
    if (/[a-z]/.test(words[i])) features.add(`w:${words[i]}`)
    if (i + 1 < words.length) features.add(`b:${words[i]}_${words[i + 1]}`)
  }
  const han = withoutIgnored(zh, CHINESE.ignore).replace(/[^\p{Script=Han}~]+/gu, '|')
  for (let i = 0; i + 1 < han.length; i++) {
    const pair = han.slice(i, i + 2)
    if (!pair.includes('|')) features.add(`c:${pair}`)
    const triple = han.slice(i, i + 3)
    if (triple.length === 3 && !triple.includes('|')) features.add(`t:${triple}`)
  }
  return [...features]
}

/** How long a message is, for the lexical layer's threshold: words of the English reading plus Chinese characters. */
export function messageSize(text: string): number {
  return sizeOf(presentOf(readingOf(text)).now)
}

export function sizeOf({ en, zh }: Reading): number {
  return (en.match(/[a-z0-9]+/g) ?? []).length + (zh.match(/\p{Script=Han}/gu) ?? []).length
}

interface Weights {
  bias: number
  weights: Record<string, number>
}

const model = weights as Weights

/** The probability, by the trained weights, that the message speaks of suicide or self-harm. */
export function riskOf(reading: Reading, trained: Weights = model): number {
  let z = trained.bias
  for (const feature of featuresOf(reading)) z += trained.weights[feature] ?? 0
  return 1 / (1 + Math.exp(-z))
}

export type { Weights as LexicalWeights }
