// The graph an import proposes, merged into the graph there is. The rule, whatever the order of imports:
//   - the same person is one card: the same name (case and punctuation aside), or a shorter form of the name
//     ("Dana" on LINE, "Dana Whitfield" on WhatsApp) when only one card can be meant;
//   - a person the user confirmed or edited keeps their name, types and closeness; nothing an import finds drops or
//     overwrites them (only the counts of what the chats show are refreshed);
//   - people offered by an earlier import and never confirmed are offered again, updated by the new import;
//   - everyone else the import finds is added as a proposal.
// People the user removed when saving are no longer in the graph; an import that finds them again offers them again.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { isSameName, isSameWords } from '../chat-import/analysis/userNameIn'

type Db = Sql | TransactionSql<{}>

export interface ProposedRelation {
  name: string
  types: string[]
  closeness: number
  messageCount: number
  userMessageCount: number
  lastMessageAt: string | null
}

export interface GraphPerson extends ProposedRelation {
  confirmed: boolean
}

const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b)

/** The card `name` belongs to: the same words, else the one card whose name is a longer or shorter form of it. */
function cardOf(people: GraphPerson[], name: string): GraphPerson | undefined {
  const same = people.find((p) => isSameWords(p.name, name))
  if (same) return same
  const aliases = people.filter((p) => isSameName(p.name, name))
  return aliases.length === 1 ? aliases[0] : undefined
}

/** The graph after an import: `current` (in its order, then the import's new people) with `proposed` merged in. Pure. */
export function mergePeople(current: GraphPerson[], proposed: ProposedRelation[]): GraphPerson[] {
  const merged = current.map((p) => ({ ...p }))
  for (const p of proposed) {
    const card = cardOf(merged, p.name)
    if (!card) {
      merged.push({ ...p, confirmed: false })
      continue
    }
    // What the chats show: the largest count any import saw (the same chat imported twice is not counted twice).
    card.messageCount = Math.max(card.messageCount, p.messageCount)
    card.userMessageCount = Math.max(card.userMessageCount, p.userMessageCount)
    card.lastMessageAt = later(card.lastMessageAt, p.lastMessageAt)
    if (card.confirmed) continue
    // A proposal takes the fuller name, the newest import's types and the closer of the two readings.
    if (p.name.length > card.name.length) card.name = p.name
    card.types = p.types
    card.closeness = Math.max(card.closeness, p.closeness)
  }
  return merged
}

/** The character's people as they stand, with what the chats showed about them, in the graph's order. */
export function currentPeople(sql: Db, characterId: string): Promise<GraphPerson[]> {
  return sql<GraphPerson[]>`
    select n.name, e.types, e.closeness, e.confirmed, n.message_count as "messageCount",
      n.user_message_count as "userMessageCount", to_char(n.last_message_at, 'YYYY-MM-DD"T"HH24:MI:SS') as "lastMessageAt"
    from relation_edges e join relation_nodes n on n.id = e.target_id
    where e.character_id = ${characterId} order by n.position, n.name`
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
