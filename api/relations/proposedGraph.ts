// The graph an import proposes. People the user already confirmed keep their types and closeness (a new import
// refreshes what the chats say, not what the user decided); proposals nobody confirmed are replaced.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'

type Db = Sql | TransactionSql<{}>

export interface ProposedRelation {
  name: string
  types: string[]
  closeness: number
  messageCount: number
  userMessageCount: number
  lastMessageAt: string | null
}

export interface ConfirmedRelation {
  name: string
  types: string[]
  closeness: number
}

export interface GraphPerson extends ProposedRelation {
  confirmed: boolean
}

/** The import's people (confirmed choices applied), then confirmed people this import did not mention. Pure. */
export function mergeWithConfirmed(proposed: ProposedRelation[], confirmed: ConfirmedRelation[]): GraphPerson[] {
  const decided = new Map(confirmed.map((c) => [c.name, c]))
  const merged: GraphPerson[] = proposed.map((p) => {
    const choice = decided.get(p.name)
    return choice ? { ...p, types: choice.types, closeness: choice.closeness, confirmed: true } : { ...p, confirmed: false }
  })
  const seen = new Set(proposed.map((p) => p.name))
  for (const c of confirmed)
    if (!seen.has(c.name)) merged.push({ ...c, messageCount: 0, userMessageCount: 0, lastMessageAt: null, confirmed: true })
  return merged
}

/** What the user confirmed when they last saved the graph. */
export function confirmedRelations(sql: Db, characterId: string): Promise<ConfirmedRelation[]> {
  return sql<ConfirmedRelation[]>`
    select n.name, e.types, e.closeness from relation_edges e join relation_nodes n on n.id = e.target_id
    where e.character_id = ${characterId} and e.confirmed order by n.position`
}

/**
 * Replaces the character's graph with the user (named `userName`) and `people`, in the caller's transaction,
 * which holds the character's row lock.
 */
export async function writeGraph(
  tx: TransactionSql<{}>,
  target: { characterId: string; userId: string; userName: string },
  people: GraphPerson[],
): Promise<void> {
  const { characterId, userId, userName } = target
  await tx`delete from relation_nodes where character_id = ${characterId}`
  const [self] = await tx<{ id: string }[]>`
    insert into relation_nodes (character_id, user_id, name, is_self) values (${characterId}, ${userId}, ${userName}, true)
    returning id`
  if (!people.length) return
  const nodes = await tx<{ id: string; name: string }[]>`
    insert into relation_nodes ${tx(
      people.map((p, position) => ({
        character_id: characterId,
        user_id: userId,
        name: p.name,
        message_count: p.messageCount,
        user_message_count: p.userMessageCount,
        last_message_at: p.lastMessageAt,
        position,
      })),
    )}
    returning id, name`
  const idOf = new Map(nodes.map((n) => [n.name, n.id]))
  await tx`
    insert into relation_edges ${tx(
      people.map((p) => ({
        character_id: characterId,
        source_id: self.id,
        target_id: idOf.get(p.name)!,
        types: p.types,
        closeness: p.closeness,
        confirmed: p.confirmed,
      })),
    )}`
}
