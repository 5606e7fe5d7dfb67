// A character as a portable card and back (characterCard.ts holds the format). Exporting reads the character of
// its owner only; importing makes a new, ready character of the caller's, with the card's people as confirmed
// relationships.
import type { Sql } from '../db/database'
import { findTrainingData } from '../onboarding/trainingData'
import { confirmedPeople, insertConfirmedPeople } from '../relations/importedPeople'
import { lockCharacter, storePrompt } from './characterPrompt'
import type { CardCharacter, LoreEntry } from './characterCard'

interface CardRow {
  id: string
  name: string
  prompt: string | null
  ideal_self_prompt: string | null
  card_description: string | null
  first_message: string | null
  card_lore: LoreEntry[] | null
  hello: string | null
}

/** The character of `userId` as a card, or null when it is not theirs. */
export async function characterAsCard(sql: Sql, userId: string, characterId: string): Promise<CardCharacter | null> {
  const [row] = await sql<CardRow[]>`
    select c.id, c.name, c.prompt, c.ideal_self_prompt, c.card_description, c.first_message, c.card_lore,
      (select m.text from messages m join conversations conv on conv.id = m.conversation_id
       where conv.character_id = c.id and conv.user_id = ${userId} and m.role = 'ASSISTANT'
       order by conv.created_at, m.created_at, m.id limit 1) as hello
    from characters c where c.id = ${characterId} and c.user_id = ${userId}`
  if (!row) return null
  const data = await findTrainingData(sql, userId)
  return {
    name: row.name,
    description:
      row.card_description ?? data?.improved_ideal_self_role_description ?? data?.original_ideal_self_description ?? '',
    personality: row.ideal_self_prompt ?? '',
    systemPrompt: row.prompt ?? '',
    // A card's own opening, else the hello this character first said here.
    firstMessage: row.first_message ?? row.hello ?? '',
    people: await confirmedPeople(sql, row.id),
    lore: row.card_lore ?? [],
  }
}

/** A new ready character of `userId` from a checked card; returns its id. */
export async function importCard(sql: Sql, userId: string, card: CardCharacter): Promise<string> {
  return sql.begin(async (tx) => {
    const [user] = await tx<{ name: string }[]>`select name from users where id = ${userId}`
    const data = await findTrainingData(tx, userId)
    const [row] = await tx<{ id: string }[]>`
      insert into characters (user_id, name, is_ready, card_description, first_message, card_lore)
      values (${userId}, ${card.name}, true, ${card.description}, ${card.firstMessage || null},
              ${card.lore.length ? tx.json(card.lore as never) : null})
      returning id`
    await insertConfirmedPeople(tx, userId, row.id, data?.user_name || user?.name || 'Me', card.people)
    const portrait = card.personality || card.description
    if (card.systemPrompt) await tx`update characters set prompt = ${card.systemPrompt}, ideal_self_prompt = ${portrait} where id = ${row.id}`
    else {
      // A card without a system prompt gets one assembled here, around its persona, like a built character.
      const locked = await lockCharacter(tx, row.id, userId)
      await storePrompt(tx, locked!, portrait || card.name)
    }
    return row.id
  })
}
