// The relationship graph of spec §3 as the editor works with it: the user's node and one card per person.
export interface GraphNode {
  id: string
  properties: { name: string }
}
export interface GraphRelationship {
  id: string
  source: string
  target: string
  types: string[]
  properties: { closeness: number }
}
export interface Graph {
  nodes: GraphNode[]
  relationships: GraphRelationship[]
}
export interface RelationCard {
  relationship: GraphRelationship
  person: GraphNode
}

export const MAX_CHIPS = 3
export const CLOSENESS_MIN = 1
export const CLOSENESS_MAX = 5

export function cardsOf(graph: Graph): RelationCard[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]))
  return graph.relationships
    .map((relationship) => ({ relationship, person: byId.get(relationship.target)! }))
    .filter((c) => c.person)
}

/** Picking a type a card already has removes it (spec §5). */
export const toggleType = (types: string[], type: string) => (types.includes(type) ? types.filter((x) => x !== type) : [...types, type])

export const chipsShown = (types: string[]) => ({ shown: types.slice(0, MAX_CHIPS), more: Math.max(0, types.length - MAX_CHIPS) })

/** The graph to save: the cards left, and only the nodes they still use. */
export function graphFrom(original: Graph, cards: RelationCard[]): Graph {
  const used = new Set<string>()
  for (const c of cards) {
    used.add(c.relationship.source)
    used.add(c.relationship.target)
  }
  return { nodes: original.nodes.filter((n) => used.has(n.id)), relationships: cards.map((c) => c.relationship) }
}

export const everyCardHasAType = (cards: RelationCard[]) => cards.every((c) => c.relationship.types.length > 0)
