// What a reply drew on: the memories and people put into its prompt, as the prompt's "Remembered" lines and as the
// record kept on the assistant message (messages.sources) for the chips under the bubble.
import type { Recall } from './recall'
import type { MemoryKind } from './memories'

/**
 * Memories are kept by id, label and kind only: the text stays in the memories table, so forgetting a memory
 * removes what it said from everywhere, while the reply's chip still shows that it drew on something.
 */
export interface ReplySources {
  memories: { id: string; label: string; kind: MemoryKind }[]
  people: { id: string; name: string; types: string[] }[]
}

export const NO_SOURCES: ReplySources = { memories: [], people: [] }

export function replySources(recall: Recall): ReplySources {
  return {
    memories: recall.memories.map((m) => ({ id: m.id, label: m.label, kind: m.kind })),
    people: recall.people.map((p) => ({ id: p.id, name: p.name, types: p.types })),
  }
}

/** The recalled memories as the prompt's "Remembered" lines (see formatPersonContext). */
export function rememberedLines(recall: Recall): string[] {
  return recall.memories.map((m) => `${m.text.replace(/\s+/g, ' ').trim()}${m.personName && !m.text.includes(m.personName) ? ` (about ${m.personName})` : ''}`)
}
