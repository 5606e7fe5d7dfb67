// The relationship graph of a character (spec §3 Relationship graph): the user as one node, every person in their
// life as another, and one relationship from the user to each person with its types and closeness.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { PromptRelation } from '../characters/characterPrompt'

type Db = Sql | TransactionSql<{}>

export interface GraphNode {
  id: string
  /** isSelf marks the user's own node (named after the author name they picked as theirs). */
  properties: { name: string; isSelf: boolean }
}

export interface GraphRelationship {
  id: string
  /** Always the user's node. */
  source: string
  /** The person. */
  target: string
  types: string[]
  /** confirmed once the user saved the graph; until then the types and closeness are the analysis's proposal. */
  properties: { closeness: number; confirmed: boolean }
}

export interface RelationGraph {
  nodes: GraphNode[]
  relationships: GraphRelationship[]
}

interface NodeRow {
  id: string
  name: string
  is_self: boolean
}

interface EdgeRow {
  id: string
  source_id: string
  target_id: string
  types: string[]
  closeness: number
  confirmed: boolean
}

/** The character's graph, the user's node first, then people in the order the analysis ranked them. */
export async function readGraph(sql: Db, characterId: string): Promise<RelationGraph> {
  const [nodes, edges] = await Promise.all([
    sql<NodeRow[]>`
      select id, name, is_self from relation_nodes where character_id = ${characterId}
      order by is_self desc, position, name`,
    sql<EdgeRow[]>`
      select e.id, e.source_id, e.target_id, e.types, e.closeness, e.confirmed
      from relation_edges e join relation_nodes n on n.id = e.target_id
      where e.character_id = ${characterId} order by n.position, n.name`,
  ])
  return {
    nodes: nodes.map((n) => ({ id: n.id, properties: { name: n.name, isSelf: n.is_self } })),
    relationships: edges.map((e) => ({
      id: e.id,
      source: e.source_id,
      target: e.target_id,
      types: e.types,
      properties: { closeness: e.closeness, confirmed: e.confirmed },
    })),
  }
}

/** The people of a graph as the character prompt takes them. */
export function promptRelations(graph: RelationGraph): PromptRelation[] {
  const names = new Map(graph.nodes.map((n) => [n.id, n.properties.name]))
  return graph.relationships.map((r) => ({ name: names.get(r.target) ?? '', types: r.types, closeness: r.properties.closeness }))
}

/** Whether the character is the user's, and whether its relations may be shown; null when it is not theirs. */
export async function relationsReadiness(sql: Db, userId: string, characterId: string): Promise<{ isReady: boolean } | null> {
  const [row] = await sql<{ relations_ready: boolean }[]>`
    select relations_ready from characters where id = ${characterId} and user_id = ${userId}`
  return row ? { isReady: row.relations_ready } : null
}
