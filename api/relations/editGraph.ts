// Saving the graph from the relationship editor (spec §2 Relationship editor, §5 relationship card): the whole
// graph is sent back; people left out are removed, the rest get the types and closeness the user chose, all in one
// transaction. Nothing new can be added: every id must be one the graph already has.
import type { Sql } from '../db/database'
import { badRequest, conflict } from '../http/errors'
import { RELATIONSHIP_TYPES } from '../content/definitions'
import { readGraph, type RelationGraph } from './graph'

export interface GraphEdit {
  nodes?: { id: string }[]
  relationships: { id?: string; source: string; target: string; types: string[]; properties: { closeness: number } }[]
}

export interface KeptRelation {
  /** The person's node. */
  personId: string
  types: string[]
  closeness: number
}

const isType = (t: string) => (RELATIONSHIP_TYPES as readonly string[]).includes(t)

/** What the edit keeps, or a 400 naming the first thing wrong with it. Pure. */
export function checkEdit(graph: RelationGraph, edit: GraphEdit): KeptRelation[] {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]))
  const self = graph.nodes.find((n) => n.properties.isSelf)
  const relationshipIds = new Set(graph.relationships.map((r) => r.id))
  const known = (id: string) => {
    if (!nodes.has(id)) throw badRequest(`Unknown node id ${id}`)
    return nodes.get(id)!
  }
  const listed = edit.nodes && new Set(edit.nodes.map((n) => known(n.id).id))

  if (!edit.relationships.length) throw badRequest('There must be at least one relation')
  const kept: KeptRelation[] = []
  for (const r of edit.relationships) {
    if (r.id !== undefined && !relationshipIds.has(r.id)) throw badRequest(`Unknown relationship id ${r.id}`)
    const [source, target] = [known(r.source), known(r.target)]
    // The editor may send the pair either way round; the graph always points from the user to the person.
    const person = source === self ? target : target === self ? source : null
    if (!person || person === self) throw badRequest('Each relationship must connect you with one person')
    const name = person.properties.name
    if (listed && !listed.has(person.id)) throw badRequest(`${name} has a relationship but is missing from nodes`)
    if (kept.some((k) => k.personId === person.id)) throw badRequest(`${name} has more than one relationship`)
    if (!r.types.length) throw badRequest(`${name} needs at least one relationship type`)
    for (const type of r.types) if (!isType(type)) throw badRequest(`Unknown relationship type ${type}`)
    const twice = r.types.find((type, i) => r.types.indexOf(type) !== i)
    if (twice) throw badRequest(`${name} has the type ${twice} twice`)
    const { closeness } = r.properties
    if (!Number.isInteger(closeness) || closeness < 1 || closeness > 5)
      throw badRequest(`closeness must be a whole number from 1 to 5 (${name})`)
    kept.push({ personId: person.id, types: r.types, closeness })
  }
  return kept
}

/**
 * Replaces the user's graph on their character with the edit; null when the character is not theirs. Refused
 * (409) until an import has been analysed, and while a new one is, since its result would overwrite the edit.
 */
export async function saveGraphEdit(sql: Sql, userId: string, characterId: string, edit: GraphEdit): Promise<RelationGraph | null> {
  return sql.begin(async (tx) => {
    const [character] = await tx<{ relations_ready: boolean }[]>`
      select relations_ready from characters where id = ${characterId} and user_id = ${userId} for update`
    if (!character) return null
    if (!character.relations_ready) throw conflict('The relationships are not ready yet: they come from an analysed chat history')
    const kept = checkEdit(await readGraph(tx, characterId), edit)
    await tx`
      delete from relation_nodes where character_id = ${characterId} and not is_self
        and id not in ${tx(kept.map((k) => k.personId))}`
    for (const k of kept)
      await tx`
        update relation_edges set types = ${k.types}, closeness = ${k.closeness}, confirmed = true, updated_at = now()
        where character_id = ${characterId} and target_id = ${k.personId}`
    return readGraph(tx, characterId)
  })
}
