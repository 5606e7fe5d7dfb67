/**
 * Cleaned author names by where they appear in the buffer. Chats have few speakers, so the
 * recent names are compared in place (no substring, no hashing) before anything is allocated.
 */
import { cleanField } from './fieldCleanup'

const RECENT = 16

export interface AuthorNames {
  /** First UTF-16 unit of each recent raw name, a cheap filter before comparing. */
  recentFirst: number[]
  recentRaw: string[]
  recentClean: string[]
  replaceAt: number
  all: Map<string, string>
}

export function createAuthorNames(): AuthorNames {
  return { recentFirst: [], recentRaw: [], recentClean: [], replaceAt: 0, all: new Map() }
}

/** The cleaned name written at buffer[start, end). */
export function authorAt(names: AuthorNames, buffer: string, start: number, end: number): string {
  const length = end - start
  const first = buffer.charCodeAt(start)
  const { recentFirst, recentRaw } = names
  for (let i = 0; i < recentRaw.length; i++) {
    if (recentFirst[i] !== first) continue
    const raw = recentRaw[i]
    if (raw.length === length && buffer.startsWith(raw, start)) return names.recentClean[i]
  }
  const raw = buffer.slice(start, end)
  let clean = names.all.get(raw)
  if (clean === undefined) {
    clean = cleanField(raw)
    names.all.set(raw, clean)
  }
  if (recentRaw.length < RECENT) {
    recentFirst.push(first)
    recentRaw.push(raw)
    names.recentClean.push(clean)
  } else {
    recentFirst[names.replaceAt] = first
    recentRaw[names.replaceAt] = raw
    names.recentClean[names.replaceAt] = clean
    names.replaceAt = (names.replaceAt + 1) % RECENT
  }
  return clean
}
