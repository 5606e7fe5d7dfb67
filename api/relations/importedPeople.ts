// People that arrive with a character rather than from an analysed chat (an imported character card): the
// person's own node and one confirmed relationship to each, written as the relationship editor would save them.
import type { TransactionSql } from 'postgres'
import { promptRelations, readGraph } from './graph'

export interface ImportedPerson {
  name: string
  types: string[]
  closeness: number
}

export async function insertConfirmedPeople(tx: TransactionSql<{}>, userId: string, characterId: string, selfName: string, people: ImportedPerson[]) {
  if (!people.length) return
  const [self] = await tx<{ id: string }[]>`
    insert into relation_nodes (character_id, user_id, name, is_self) values (${characterId}, ${userId}, ${selfName}, true) returning id`
  for (const [position, p] of people.entries()) {
    const [node] = await tx<{ id: string }[]>`
      insert into relation_nodes (character_id, user_id, name, position) values (${characterId}, ${userId}, ${p.name}, ${position})
      returning id`
    await tx`
      insert into relation_edges (character_id, source_id, target_id, types, closeness, confirmed)
      values (${characterId}, ${self.id}, ${node.id}, ${p.types}, ${p.closeness}, true)`
  }
  const relations = promptRelations(await readGraph(tx, characterId))
  await tx`update characters set relations_ready = true, prompt_relations = ${tx.json(relations as never)} where id = ${characterId}`
}

/** The confirmed people of a character's graph, in the graph's order. */
export async function confirmedPeople(sql: TransactionSql<{}> | import('../db/database').Sql, characterId: string): Promise<ImportedPerson[]> {
  const graph = await readGraph(sql, characterId)
  const names = new Map(graph.nodes.map((n) => [n.id, n.properties.name]))
  return graph.relationships
    .filter((r) => r.properties.confirmed)
    .map((r) => ({ name: names.get(r.target) ?? '', types: r.types, closeness: r.properties.closeness }))
}
