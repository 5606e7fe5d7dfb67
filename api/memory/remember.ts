// Writes what an extractor found: new memories (or, for a near-duplicate of a known one, an update of it), changes
// to known memories and the removal of outdated ones, all in the caller's transaction and only ever on the
// person's own rows.
import type { TransactionSql } from 'postgres'
import type { ExtractedChanges } from '../prompts/memoryExtractor.v1'
import { createMemory, updateMemory, type MemoryKind } from './memories'
import { anyTermQuery, hanBigrams, queryTerms } from './searchText'

/** The words (and Chinese character pairs) of a text, for comparing two memories. */
function termSet(text: string): Set<string> {
  const terms = new Set<string>()
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(/\p{Script=Han}+|[\p{L}\p{N}]+/gu))
    for (const term of /\p{Script=Han}/u.test(word) ? hanBigrams(word) : [word.replace(/(?:ies|es|s)$/, '')]) terms.add(term)
  return terms
}

/** Whether two memories say nearly the same thing: most of their words shared, or one contained in the other. */
export function isNearDuplicate(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s\p{P}]+/gu, '')
  const [na, nb] = [norm(a), norm(b)]
  if (!na || !nb) return false
  if (na === nb || (Math.min(na.length, nb.length) >= 6 && (na.includes(nb) || nb.includes(na)))) return true
  const [ta, tb] = [termSet(a), termSet(b)]
  let shared = 0
  for (const t of ta) if (tb.has(t)) shared++
  return shared / (ta.size + tb.size - shared) >= 0.6
}

export interface Remembered {
  added: string[]
  updated: string[]
  removed: string[]
}

export async function applyChanges(
  tx: TransactionSql<{}>,
  userId: string,
  sourceMessageId: string | null,
  changes: ExtractedChanges,
): Promise<Remembered> {
  const result: Remembered = { added: [], updated: [], removed: [] }
  for (const id of new Set(changes.outdated)) {
    if (!/^[0-9a-f-]{36}$/i.test(id)) continue
    const rows = await tx`delete from memories where id = ${id} and user_id = ${userId} returning id`
    if (rows.length) result.removed.push(id)
  }
  for (const change of changes.update) {
    if (!/^[0-9a-f-]{36}$/i.test(change.id) || result.removed.includes(change.id)) continue
    const row = await updateMemory(tx, userId, change.id, { text: change.text, ...(change.label ? { label: change.label } : {}) })
    if (row) result.updated.push(row.id)
  }
  for (const memory of changes.add) {
    const text = memory.text.trim()
    if (!text) continue
    const twin = await nearDuplicateOf(tx, userId, text)
    if (twin) {
      // The newer wording wins: it is what the person said last.
      await updateMemory(tx, userId, twin, { text, kind: memory.kind as MemoryKind, label: memory.label, personName: memory.person ?? undefined })
      if (!result.updated.includes(twin)) result.updated.push(twin)
    } else {
      const row = await createMemory(tx, userId, { kind: memory.kind, text, label: memory.label, personName: memory.person }, sourceMessageId)
      result.added.push(row.id)
    }
  }
  return result
}

/** A memory of the person's that says nearly the same as `text`, found among those sharing words with it. */
async function nearDuplicateOf(tx: TransactionSql<{}>, userId: string, text: string): Promise<string | null> {
  const terms = queryTerms(text)
  if (!terms.length) return null
  const rows = await tx<{ id: string; text: string }[]>`
    select id, text from memories
    where user_id = ${userId} and search_vector @@ to_tsquery('english', ${anyTermQuery(terms)})
    order by ts_rank(search_vector, to_tsquery('english', ${anyTermQuery(terms)})) desc limit 20`
  return rows.find((r) => isNearDuplicate(r.text, text))?.id ?? null
}
