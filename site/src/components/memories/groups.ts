// How the settings list is laid out: one group per person (people first, by name), then "about you"; inside a
// group one block per kind in a fixed order, newest memory first.
import type { MemoryKind, MemoryView } from '../../../../api/memory/memories'

export type { MemoryKind }
export type Memory = MemoryView
/** The order kinds are shown in (the API's list is the order they were defined in). */
export const KINDS: readonly MemoryKind[] = ['person', 'event', 'plan', 'preference', 'fact']

export interface MemoryGroup {
  key: string
  person: { name: string; types: string[] } | null
  kinds: { kind: MemoryKind; items: Memory[] }[]
}

export function groupMemories(memories: Memory[]): MemoryGroup[] {
  const byPerson = new Map<string, { person: MemoryGroup['person']; items: Memory[] }>()
  for (const memory of memories) {
    const key = memory.person ? `p-${memory.person.name.toLowerCase()}` : 'you'
    const entry = byPerson.get(key) ?? { person: memory.person && { name: memory.person.name, types: memory.person.types }, items: [] }
    if (entry.person && !entry.person.types.length && memory.person?.types.length) entry.person = { name: entry.person.name, types: memory.person.types }
    entry.items.push(memory)
    byPerson.set(key, entry)
  }
  const keys = [...byPerson.keys()].sort((a, b) => (a === 'you' ? 1 : b === 'you' ? -1 : a.localeCompare(b)))
  return keys.map((key) => {
    const { person, items } = byPerson.get(key)!
    const newest = [...items].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    return {
      key: key.replace(/[^\p{L}\p{N}-]/gu, '_'),
      person,
      kinds: KINDS.map((kind) => ({ kind, items: newest.filter((m) => m.kind === kind) })).filter((k) => k.items.length),
    }
  })
}
