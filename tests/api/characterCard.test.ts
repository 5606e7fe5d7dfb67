import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { fullAccount, GROUP_PEOPLE, type FullAccount } from '../helpers/fullAccount'
import { NOW_TEXT } from '../unit/chat/chatFixtures'

let app: TestApp
let person: FullAccount
beforeAll(async () => {
  app = await startTestApp()
  person = await fullAccount(app)
}, 120_000)
afterAll(() => app?.close())

const SERAPHINA = readFileSync(new URL('../fixtures/cards/seraphina-v3.json', import.meta.url))

function cardForm(bytes: Uint8Array, name: string, type: string) {
  const form = new FormData()
  form.append('file', new File([bytes], name, { type }))
  return form
}

async function exported(cookie: string, id: string, format: 'json' | 'png') {
  const res = await app.call('GET', `/chatbots/characters/${id}/card?format=${format}`, { cookie })
  expect(res.status).toBe(200)
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

const cardFields = (card: any) => ({
  name: card.data.name,
  description: card.data.description,
  personality: card.data.personality,
  system_prompt: card.data.system_prompt,
  first_mes: card.data.first_mes,
  lorebook: (card.data.character_book?.entries ?? []).map((e: any) => ({ keys: e.keys, content: e.content, extensions: e.extensions })),
})

describe('exporting a character card', () => {
  test('JSON: chara_card_v3 with the description, persona, prompt, first message and the confirmed people', async () => {
    const { res, bytes } = await exported(person.cookie, person.characterId, 'json')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /)
    const card = JSON.parse(new TextDecoder().decode(bytes))
    expect(card).toMatchObject({ spec: 'chara_card_v3', spec_version: '3.0' })
    const [character] = (await app.json('GET', '/chatbots/characters', { cookie: person.cookie })).body
    expect(card.data.name).toBe(character.name)
    expect(card.data.description).toContain('A calm organiser')
    const [row] = await app.ctx.sql`select prompt, ideal_self_prompt from characters where id = ${person.characterId}`
    expect(card.data.system_prompt).toBe(row.prompt)
    expect(card.data.personality).toBe(row.ideal_self_prompt)
    const [hello] = await app.ctx.sql`select text from messages where conversation_id = ${person.conversationId} and role = 'ASSISTANT' order by created_at limit 1`
    expect(card.data.first_mes).toBe(hello.text)
    expect(card.data.character_book.entries.map((e: any) => e.keys[0]).sort()).toEqual([...GROUP_PEOPLE].sort())
  })

  test('owner only: another person and staff get 404; junk ids 404; a bad format is a 400', async () => {
    const other = await app.signUp()
    const admin = await app.makeUser({ role: 'ADMIN' })
    const dev = await app.makeUser({ role: 'DEVELOPER' })
    for (const cookie of [other.cookie, await app.signIn(admin.email, admin.password), await app.signIn(dev.email, dev.password)]) {
      const res = await app.json('GET', `/chatbots/characters/${person.characterId}/card`, { cookie })
      expect(res.body).toEqual({ statusCode: 404, error: 'NotFound', message: 'Character not found' })
    }
    expect((await app.json('GET', `/chatbots/characters/${person.characterId}/card`)).status).toBe(401)
    expect((await app.json('GET', '/chatbots/characters/nope/card', { cookie: person.cookie })).status).toBe(404)
    expect((await app.json('GET', `/chatbots/characters/${person.characterId}/card?format=gif`, { cookie: person.cookie })).status).toBe(400)
  })
})

describe('importing a character card', () => {
  test.each(['json', 'png'] as const)('round trip as %s: export → import → export gives the same fields, people confirmed', async (format) => {
    const first = await exported(person.cookie, person.characterId, format)
    const { cookie } = await app.signUp()
    const imported = await app.json('POST', '/chatbots/characters/card', {
      cookie,
      form: cardForm(first.bytes, `card.${format}`, format === 'png' ? 'image/png' : 'application/json'),
    })
    expect(imported.status).toBe(201)
    expect(imported.body).toMatchObject({ characterId: expect.any(String), isReady: true })
    const id = imported.body.characterId
    const again = await exported(cookie, id, 'json')
    const card = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes))
    const original = format === 'json' ? card(first.bytes) : card((await exported(person.cookie, person.characterId, 'json')).bytes)
    expect(cardFields(card(again.bytes))).toEqual(cardFields(original))
    const relations = await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })
    expect(relations.body.isReady).toBe(true)
    expect(relations.body.data.relationships.every((r: any) => r.properties.confirmed)).toBe(true)
    expect(relations.body.data.nodes.filter((n: any) => !n.properties.isSelf).map((n: any) => n.properties.name).sort()).toEqual([...GROUP_PEOPLE].sort())
  })

  test('a card written by hand for another front-end imports, chats, and opens with its first message', async () => {
    const { cookie } = await app.signUp()
    const imported = await app.json('POST', '/chatbots/characters/card', { cookie, form: cardForm(SERAPHINA, 'seraphina.json', 'application/json') })
    expect(imported.status).toBe(201)
    expect(imported.body.name).toBe('Seraphina')
    const id = imported.body.characterId
    const conversation = await app.json('POST', '/chatbots/conversations', { cookie, body: { name: 'Glade' } })
    const hello = await app.json('GET', `/chatbots/conversations/${conversation.body.id}/character/${id}/hello?currentDateTime=${encodeURIComponent(NOW_TEXT)}`, { cookie })
    expect(hello.status).toBe(200)
    expect(hello.body.newChatbotMessage.text).toContain("You're safe now")
    const reply = await app.json('POST', `/chatbots/conversations/${conversation.body.id}/character/${id}/chat?sse=false`, {
      cookie,
      body: { text: 'Where am I?', currentDateTime: NOW_TEXT },
    })
    expect(reply.status).toBe(200)
    // Its world entries travel on when it is exported again.
    const card = JSON.parse(new TextDecoder().decode((await exported(cookie, id, 'json')).bytes))
    expect(card.data.character_book.entries.map((e: any) => e.keys)).toEqual([['Eldergrove', 'forest'], ['shadow wolves']])
    expect(card.data.description).toContain('forest guardian')
    // Its prompt was assembled around the persona, since the card had no system prompt.
    const [row] = await app.ctx.sql`select prompt from characters where id = ${id}`
    expect(row.prompt).toContain('Kind, patient')
  })

  test('a malformed or oversized card is a 400 with the shared error shape, and no character is made', async () => {
    const { cookie, user } = await app.signUp()
    const cases: [Uint8Array, string, RegExp][] = [
      [new TextEncoder().encode('{"spec":"chara_card_v3"'), 'a.json', /not valid JSON/],
      [new TextEncoder().encode(JSON.stringify({ name: 'V1 only' })), 'a.json', /spec must be chara_card_v2 or chara_card_v3/],
      [new Uint8Array(2 * 1024 * 1024 + 10).fill(32), 'big.json', /larger than 2 MB/],
      [Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')), 'plain.png', /no character card/],
    ]
    for (const [bytes, name, message] of cases) {
      const res = await app.json('POST', '/chatbots/characters/card', { cookie, form: cardForm(bytes, name, 'application/octet-stream') })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, error: expect.stringMatching(/^(InvalidCard|CardTooLarge)$/), message: expect.stringMatching(message) })
    }
    const huge = await app.json('POST', '/chatbots/characters/card', { cookie, form: cardForm(new Uint8Array(3 * 1024 * 1024), 'huge.png', 'image/png') })
    expect(huge.status).toBe(413)
    expect((await app.json('POST', '/chatbots/characters/card', { cookie, body: {} })).status).toBe(400)
    const [{ count }] = await app.ctx.sql`select count(*)::int as count from characters where user_id = ${user.id}`
    expect(count).toBe(0)
  })
})
