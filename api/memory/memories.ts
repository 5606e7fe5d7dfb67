// The memories table (sql/0011_memories.sql): what the companion remembers about the person. Every query is scoped
// to the owner in its WHERE, so another person's memory looks exactly like a missing one.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { searchText } from './searchText'

type Db = Sql | TransactionSql<{}>

export const MEMORY_KINDS = ['fact', 'person', 'plan', 'preference', 'event'] as const
export type MemoryKind = (typeof MEMORY_KINDS)[number]

export const MEMORY_TEXT_MAX = 500
export const MEMORY_LABEL_MAX = 60

export interface MemoryRow {
  id: string
  kind: MemoryKind
  text: string
  label: string
  person_name: string | null
  relation_node_id: string | null
  /** The linked person's relationship types, when the memory is linked to a node of the graph. */
  person_types: string[] | null
  source_message_id: string | null
  source_conversation_id: string | null
  created_at: Date
  updated_at: Date
}

export interface MemoryView {
  id: string
  kind: MemoryKind
  text: string
  label: string
  person: { name: string; relationNodeId: string | null; types: string[] } | null
  sourceMessageId: string | null
  sourceConversationId: string | null
  createdAt: string
  updatedAt: string
}

export interface MemoryInput {
  kind: MemoryKind
  text: string
  label?: string | null
  personName?: string | null
}

export const toMemoryView = (row: MemoryRow): MemoryView => ({
  id: row.id,
  kind: row.kind,
  text: row.text,
  label: row.label,
  person: row.person_name ? { name: row.person_name, relationNodeId: row.relation_node_id, types: row.person_types ?? [] } : null,
  sourceMessageId: row.source_message_id,
  sourceConversationId: row.source_conversation_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
})

/** A chip-sized topic: the first few words (or Chinese characters) of the text when none is given. */
export function defaultLabel(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = [...flat]
  if (/\p{Script=Han}/u.test(flat)) return chars.slice(0, 12).join('') + (chars.length > 12 ? '…' : '')
  const words = flat.split(' ')
  const short = words.slice(0, 4).join(' ')
  return ([...short].length > MEMORY_LABEL_MAX - 1 ? [...short].slice(0, MEMORY_LABEL_MAX - 1).join('') : short) + (words.length > 4 ? '…' : '')
}

const cleanLabel = (input: MemoryInput) => {
  const label = input.label?.replace(/\s+/g, ' ').trim()
  return label ? [...label].slice(0, MEMORY_LABEL_MAX).join('') : defaultLabel(input.text)
}
const cleanPerson = (name: string | null | undefined) => name?.replace(/\s+/g, ' ').trim().slice(0, 80) || null

// The columns every read returns, with the linked person's types (from whichever graph the node belongs to).
const selectMemories = (sql: Db) => sql`
  select m.id, m.kind, m.text, m.label, m.person_name, m.relation_node_id, e.types as person_types,
    m.source_message_id, msg.conversation_id as source_conversation_id, m.created_at, m.updated_at
  from memories m
  left join relation_edges e on e.target_id = m.relation_node_id
  left join messages msg on msg.id = m.source_message_id`

/** The node of the person's graph with this name, preferring their most recently confirmed graph. */
const personNode = (sql: Db, userId: string, personName: string | null) => sql`
  (select n.id from relation_nodes n join relation_edges e on e.target_id = n.id
   where n.user_id = ${userId} and not n.is_self and lower(n.name) = lower(${personName})
   order by e.confirmed desc, e.updated_at desc limit 1)`

export async function listMemories(sql: Db, userId: string, search?: string): Promise<MemoryRow[]> {
  const q = search?.trim()
  return sql<MemoryRow[]>`
    ${selectMemories(sql)}
    where m.user_id = ${userId}
      ${q ? sql`and (m.text ilike ${'%' + escapeLike(q) + '%'} or m.label ilike ${'%' + escapeLike(q) + '%'} or m.person_name ilike ${'%' + escapeLike(q) + '%'} or m.kind = ${q.toLowerCase()})` : sql``}
    order by m.updated_at desc, m.id`
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export async function getMemory(sql: Db, userId: string, id: string): Promise<MemoryRow | null> {
  const [row] = await sql<MemoryRow[]>`${selectMemories(sql)} where m.user_id = ${userId} and m.id = ${id}`
  return row ?? null
}

export async function createMemory(sql: Db, userId: string, input: MemoryInput, sourceMessageId: string | null = null): Promise<MemoryRow> {
  const person = cleanPerson(input.personName)
  const text = input.text.trim()
  const [{ id }] = await sql<{ id: string }[]>`
    insert into memories (user_id, kind, text, label, person_name, relation_node_id, source_message_id, search_text)
    values (${userId}, ${input.kind}, ${text}, ${cleanLabel(input)}, ${person},
            ${person ? personNode(sql, userId, person) : null}, ${sourceMessageId},
            ${searchText([text, person].filter(Boolean).join(' '))})
    returning id`
  return (await getMemory(sql, userId, id))!
}

/** Changes the given fields; null when the memory is not the caller's. */
export async function updateMemory(sql: Db, userId: string, id: string, change: Partial<MemoryInput>): Promise<MemoryRow | null> {
  const [current] = await sql<{ kind: MemoryKind; text: string; label: string; person_name: string | null }[]>`
    select kind, text, label, person_name from memories where id = ${id} and user_id = ${userId} for update`
  if (!current) return null
  const text = change.text?.trim() ?? current.text
  const person = change.personName === undefined ? current.person_name : cleanPerson(change.personName)
  // A new text without a new label gets a label of its own, unless the old one was set apart from the text.
  const label =
    change.label != null ? cleanLabel({ kind: current.kind, text, label: change.label })
    : change.text !== undefined && current.label === defaultLabel(current.text) ? defaultLabel(text)
    : current.label
  await sql`
    update memories set kind = ${change.kind ?? current.kind}, text = ${text}, label = ${label}, person_name = ${person},
      relation_node_id = ${person ? personNode(sql, userId, person) : null},
      search_text = ${searchText([text, person].filter(Boolean).join(' '))}, updated_at = clock_timestamp()
    where id = ${id} and user_id = ${userId}`
  return getMemory(sql, userId, id)
}

export async function deleteMemory(sql: Db, userId: string, id: string): Promise<boolean> {
  const rows = await sql`delete from memories where id = ${id} and user_id = ${userId} returning id`
  return rows.length > 0
}

export async function forgetAll(sql: Db, userId: string): Promise<number> {
  const rows = await sql`delete from memories where user_id = ${userId} returning id`
  return rows.length
}
