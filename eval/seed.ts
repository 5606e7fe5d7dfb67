// Puts a scenario's person into the database the way the app's own features would have: onboarding's training data
// and story, the character prompt assembled by the character feature, the style measured by the chat import's
// analysis, the people written and confirmed as the relationship editor saves them, and memories created by the
// memory feature. Only rows no service writes on its own (the account, the story lines) are inserted here.
import type { Sql } from '../api/db/database'
import { lockCharacter, rebuildCharacterPrompt, storePrompt } from '../api/characters/characterPrompt'
import { parseChatExport } from '../api/chat-import/parseChatExport'
import { describeStyle, measureSpeakingStyle, promptStyle } from '../api/chat-import/analysis/speakingStyle'
import { writeGraph } from '../api/relations/proposedGraph'
import { promptRelations, readGraph } from '../api/relations/graph'
import { createMemory } from '../api/memory/memories'
import { EXTRACT_MEMORIES } from '../api/memory/extractJob'
import type { Scenario } from './scenario'

export interface SeededPerson {
  userId: string
  characterId: string
  conversationId: string
}

/** The messages of the style sample; throws when the export cannot be read or the author wrote nothing in it. */
function styleChats(scenario: Scenario) {
  const style = scenario.person.style!
  const parsed = parseChatExport(style.export.trimStart())
  if (!parsed.ok) throw new Error(`${scenario.id}: the style export cannot be read (${parsed.error})`)
  if (!parsed.speakers.includes(style.author)) throw new Error(`${scenario.id}: the style export has no author "${style.author}" (${parsed.speakers.join(', ')})`)
  return parsed.messages
}

export async function seedPerson(sql: Sql, scenario: Scenario, tag: string): Promise<SeededPerson> {
  const { person } = scenario
  // A unique address per run and scenario: several runs may share one database.
  const email = `eval-${tag}-${scenario.id}@eval.invalid`
  const [user] = await sql<{ id: string }[]>`
    insert into users (email, name, subscription_type, message_limit, onboarding_completed, is_email_verified)
    values (${email}, ${person.name}, 'PREMIUM', 100000, true, true) returning id`
  const userId = user.id
  try {
    return await seedRest(sql, scenario, userId)
  } catch (error) {
    await sql`delete from users where id = ${userId}`
    throw error
  }
}

/** Everything after the account; a failure part-way removes the account again (seedPerson). */
async function seedRest(sql: Sql, scenario: Scenario, userId: string): Promise<SeededPerson> {
  const { person, language } = scenario
  await sql`
    insert into training_data (user_id, user_name, original_ideal_self_description, improved_ideal_self_role_name,
      improved_ideal_self_role_description, preferred_language, story_completed)
    values (${userId}, ${person.name}, ${person.description}, ${person.roleName ?? null}, ${person.roleDescription ?? null},
      ${person.language ?? language}, true)`
  if (person.country) await sql`update users set crisis_country = ${person.country} where id = ${userId}`
  for (const entry of person.story ?? []) {
    await sql`insert into story_entries (user_id, role, content) values (${userId}, 'GUIDE', ${entry.guide})`
    await sql`insert into story_entries (user_id, role, content) values (${userId}, 'USER', ${entry.user})`
  }

  const characterId = await sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      insert into characters (user_id, name) values (${userId}, ${person.roleName ?? person.name}) returning id`
    const locked = (await lockCharacter(tx, row.id))!
    await storePrompt(tx, locked, person.portrait, { markReady: true })
    return row.id
  })

  if (person.style) {
    const profile = measureSpeakingStyle([styleChats(scenario)], person.style.author)
    await rebuildCharacterPrompt(sql, characterId, { speakingStyle: promptStyle(profile, describeStyle(profile)) })
  }
  if (person.people?.length) {
    await sql.begin(async (tx) => {
      await lockCharacter(tx, characterId)
      await writeGraph(
        tx,
        { characterId, userId, userName: person.style?.author ?? person.name },
        person.people!.map((p) => ({ ...p, confirmed: true, messageCount: 0, userMessageCount: 0, lastMessageAt: null })),
      )
      await tx`update characters set relations_ready = true where id = ${characterId}`
    })
    await rebuildCharacterPrompt(sql, characterId, { relations: promptRelations(await readGraph(sql, characterId)) })
  }
  for (const memory of person.memories ?? []) await createMemory(sql, userId, memory)

  const [conversation] = await sql<{ id: string }[]>`
    insert into conversations (user_id, character_id, name) values (${userId}, ${characterId}, ${scenario.title}) returning id`
  return { userId, characterId, conversationId: conversation.id }
}

/**
 * Removes the person and everything of theirs (characters, messages, memories, queued jobs cascade), once the
 * `queued` memory extractions the reply path queues after each saved ordinary reply are in: removing them earlier
 * would fail those inserts. The eval never runs the extractions; the scenario's memories are its own.
 */
export async function removePerson(sql: Sql, userId: string, queued: number): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 20) {
    const [{ count }] = await sql<{ count: number }[]>`
      select count(*)::int as count from jobs where user_id = ${userId} and kind = ${EXTRACT_MEMORIES}`
    if (count >= queued) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await sql`delete from users where id = ${userId}`
}
