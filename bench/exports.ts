// Generated chat exports for the benchmarks: deterministic (the same seed gives the same file), 8 speakers, 3–20
// words a line with emoji, CJK and smart punctuation, 11 % multi-line messages, 3 % system lines, 1–1800 s apart.
import { writeFileSync } from 'node:fs'
import type { ChatMessage } from '../api/chat-import/types'

/** Deterministic pseudo-random numbers (mulberry32) so every run benchmarks the same files. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const AUTHORS = ['Dana Whitfield', 'Marcus Lee', 'Priya Raman', "Sam O'Neill", '陳小美', 'Leo Martínez', '+44 7700 900123', '高橋 美咲']
const WORDS = (
  'the a to and of in for on with at from by about as into like through after over between out against during ' +
  'hike trail summit water snacks parking tomorrow tonight morning weather rain sunny meet car train map photo ' +
  'great thanks sounds good see you soon maybe later ok sure why not lunch dinner coffee 7:30 10:00 2km 😅 🎉 👍 ⛰️ 好的 ありがとう ' +
  'don’t it’s “ok” wait… —'
).split(' ')

export function generateMessages(count: number, seed: number): ChatMessage[] {
  const next = random(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]
  const messages: ChatMessage[] = []
  let time = Date.UTC(2019, 0, 1, 8, 0, 0)
  for (let i = 0; i < count; i++) {
    time += Math.floor(next() * 1800 + 1) * 1000
    const date = new Date(time).toISOString().slice(0, 19)
    const roll = next()
    if (roll < 0.03) {
      messages.push({ date, author: '', text: `${pick(AUTHORS)} added ${pick(AUTHORS)}`, kind: 'system' })
      continue
    }
    const lineCount = roll < 0.11 ? 2 + Math.floor(next() * 3) : 1
    const lines: string[] = []
    for (let l = 0; l < lineCount; l++) {
      const words: string[] = []
      for (let w = 3 + Math.floor(next() * 18); w > 0; w--) words.push(pick(WORDS))
      lines.push(words.join(' '))
    }
    messages.push({ date, author: pick(AUTHORS), text: lines.join('\n'), kind: 'message' })
  }
  return messages
}

/** Writes an export of about `target` bytes to `path`, rendered by `render`. */
export function generateExport(target: number, path: string, render: (messages: ChatMessage[]) => string, seed: number): void {
  const sampleSize = 20_000
  const bytesPerMessage = Buffer.byteLength(render(generateMessages(sampleSize, seed))) / sampleSize
  writeFileSync(path, render(generateMessages(Math.round(target / bytesPerMessage), seed)))
}
