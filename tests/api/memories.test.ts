import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { allEvents, NOW_TEXT, startChat, type ChatSetup } from '../unit/chat/chatFixtures'
import { EXTRACT_MEMORIES } from '../../api/memory/extractJob'
import { memoryExtractorSchema } from '../../api/prompts/memoryExtractor.v1'

const MODEL = 'llama3.2:1b'
let offline: TestApp
let ollama: TestApp
let fake: FakeModelServer

beforeAll(async () => {
  fake = startFakeOllama({ models: [MODEL] })
  offline = await startTestApp()
  ollama = await startTestApp({}, { model: createOllamaProvider({ host: fake.url, model: MODEL }) })
})
afterAll(async () => {
  await offline?.close()
  await ollama?.close()
  fake?.stop()
})

async function say(app: TestApp, chat: ChatSetup, text: string) {
  const res = await app.call('POST', `${chat.path}/chat`, { cookie: chat.cookie, body: { text, currentDateTime: NOW_TEXT } })
  expect(res.status).toBe(200)
  const events = await allEvents(res)
  const start = events[0]
  expect(events.at(-1)!.event).toBe('done')
  return { botMessageId: start.data.botMessageId as string, sources: start.data.sources, text: events.at(-1)!.data.text as string }
}

/** Waits until the extraction job of the exchange that `botMessageId` answered has finished; returns its row. */
async function extracted(app: TestApp, botMessageId: string) {
  for (let i = 0; i < 1200; i++) {
    const [row] = await app.ctx.sql<{ status: string; last_error: string | null; attempts: number }[]>`
      select status, last_error, attempts from jobs where kind = ${EXTRACT_MEMORIES} and payload->>'botMessageId' = ${botMessageId}`
    if (row && (row.status === 'SUCCEEDED' || row.status === 'FAILED' || (row.status === 'PENDING' && row.attempts > 0))) return row
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('memory extraction did not finish')
}

const memoriesOf = async (app: TestApp, cookie: string, search?: string) =>
  (await app.json('GET', `/memories${search ? `?search=${encodeURIComponent(search)}` : ''}`, { cookie })).body.memories as any[]

/** The system prompt of the most recent chat reply the fake model was asked for. */
const lastChatSystemPrompt = () => {
  const chats = fake.chats().filter((r) => !r.body.format)
  return chats.at(-1)!.body.messages[0].content as string
}

/** Both apps share the database on PostgreSQL: while one is tested, the other's worker must not take its jobs. */
function pauseWorkerOf(other: () => TestApp) {
  beforeAll(() => other().ctx.jobs.stop())
  afterAll(() => other().ctx.jobs.start(other().ctx))
}

describe('with no model: rules remember, recall brings it back with its chip', () => {
  pauseWorkerOf(() => ollama)
  test('a fact told in one conversation comes back in a later one, shown as a source', async () => {
    const chat = await startChat(offline)
    await extracted(offline, (await say(offline, chat, "I'm training for the Taipei marathon in April.")).botMessageId)
    const [memory] = await memoriesOf(offline, chat.cookie)
    expect(memory).toMatchObject({ kind: 'plan', text: "I'm training for the Taipei marathon in April.", label: 'Taipei marathon', person: null })

    const later = await offline.json('POST', '/chatbots/conversations', { cookie: chat.cookie, body: { name: 'Ideal Self later' } })
    const laterChat = { ...chat, conversationId: later.body.id, path: `/chatbots/conversations/${later.body.id}/character/${chat.characterId}` }
    const reply = await say(offline, laterChat, 'My legs are sore from marathon training, should I rest?')
    expect(reply.sources.memories).toEqual([{ id: memory.id, label: 'Taipei marathon', kind: 'plan' }])
    // History keeps the chips.
    const page = await offline.json('GET', `/chatbots/conversations/${laterChat.conversationId}`, { cookie: chat.cookie })
    expect(page.body.messages.find((m: any) => m.id === reply.botMessageId).sources.memories[0].id).toBe(memory.id)
  })

  test('the memories kept after each exchange are not jobs that make the character', async () => {
    const chat = await startChat(offline)
    for (const text of ['I moved to Tainan last spring.', 'My brother Kai visits on Sundays.'])
      expect((await extracted(offline, (await say(offline, chat, text)).botMessageId)).status).toBe('SUCCEEDED')
    // The character of this setup was written straight into the database, so no job made it.
    const [{ count }] = await offline.ctx.sql<{ count: number }[]>`
      select count(*)::int as count from jobs where character_id = ${chat.characterId} and kind = ${EXTRACT_MEMORIES}`
    expect(count).toBe(2)
    const character = (await offline.json('GET', `/chatbots/characters/${chat.characterId}`, { cookie: chat.cookie })).body
    expect(character.characterGenerationJobs).toEqual([])
    const listed = (await offline.json('GET', '/chatbots/characters', { cookie: chat.cookie })).body
    expect(listed.find((c: any) => c.id === chat.characterId).characterGenerationJobs).toEqual([])
  })

  test('Chinese memories are found by a message sharing a word with them', async () => {
    const chat = await startChat(offline)
    await extracted(offline, (await say(offline, chat, '我妹妹小美三月開始上大學。')).botMessageId)
    const [memory] = await memoriesOf(offline, chat.cookie)
    expect(memory).toMatchObject({ kind: 'event', label: '小美 · 妹妹', person: { name: '小美' } })
    const reply = await say(offline, chat, '最近在想要送什麼禮物給小美，慶祝她上大學')
    expect(reply.sources.memories.map((m: any) => m.id)).toEqual([memory.id])
  })
})

describe('with a model: one JSON-schema call per exchange', () => {
  pauseWorkerOf(() => offline)
  test('the schema is sent, new memories are stored and a near-duplicate updates the known one', async () => {
    const chat = await startChat(ollama)
    let extraction = { add: [{ kind: 'plan', text: 'Training for the Taipei marathon in April', label: 'marathon', person: null }], update: [], outdated: [] }
    fake.reply((input) => (input.schema ? { text: JSON.stringify(extraction) } : defaultReply(input)))
    try {
      await extracted(ollama, (await say(ollama, chat, 'I signed up for the Taipei marathon, it is in April')).botMessageId)
      const request = fake.chats().at(-1)!
      expect(request.body.format).toEqual(JSON.parse(JSON.stringify(memoryExtractorSchema)))
      expect(request.body.messages.at(-1).content).toContain('I signed up for the Taipei marathon')
      const [first] = await memoriesOf(ollama, chat.cookie)
      expect(first).toMatchObject({ kind: 'plan', text: 'Training for the Taipei marathon in April', label: 'marathon' })

      // The model repeats it with a detail: merged into the same memory instead of a second one.
      extraction = { add: [{ kind: 'plan', text: 'Training for the Taipei marathon in April, aiming for under 4 hours', label: 'marathon', person: null }], update: [], outdated: [] }
      await extracted(ollama, (await say(ollama, chat, 'I want to finish the marathon in under 4 hours')).botMessageId)
      const known = fake.chats().at(-1)!.body.messages[0].content as string
      expect(known).toContain(`[${first.id}] (plan) Training for the Taipei marathon in April`)
      const after = await memoriesOf(ollama, chat.cookie)
      expect(after).toHaveLength(1)
      expect(after[0]).toMatchObject({ id: first.id, text: 'Training for the Taipei marathon in April, aiming for under 4 hours' })

      // Outdated ids go; ids the model was never shown (another person's) are ignored.
      const other = await startChat(ollama)
      const foreign = (await ollama.json('POST', '/memories', { cookie: other.cookie, body: { kind: 'fact', text: 'Lives in Tainan' } })).body
      extraction = { add: [], update: [{ id: foreign.id, text: 'hacked', label: null }] as any, outdated: [first.id, foreign.id] as any }
      await extracted(ollama, (await say(ollama, chat, 'I dropped out of the marathon, my knee needs a rest')).botMessageId)
      expect(await memoriesOf(ollama, chat.cookie)).toEqual([])
      expect((await memoriesOf(ollama, other.cookie))[0]).toMatchObject({ id: foreign.id, text: 'Lives in Tainan' })
    } finally {
      fake.reply(defaultReply)
    }
  })

  test('a failing extraction never touches the reply', async () => {
    const chat = await startChat(ollama)
    fake.reply((input) => (input.schema ? { status: 500, error: 'model crashed' } : defaultReply(input)))
    try {
      const reply = await say(ollama, chat, 'I live in Taichung now')
      expect(reply.text).toBe('Reply to "I live in Taichung now"')
      const stored = await ollama.json('GET', `/chatbots/conversations/${chat.conversationId}/messages/${reply.botMessageId}`, { cookie: chat.cookie })
      expect(stored.body).toMatchObject({ text: reply.text, status: 'COMPLETE' })
      expect((await extracted(ollama, reply.botMessageId)).last_error).toContain('500')
      expect(await memoriesOf(ollama, chat.cookie)).toEqual([])
    } finally {
      fake.reply(defaultReply)
    }
  })
})

describe('recall into the prompt', () => {
  pauseWorkerOf(() => offline)
  test('relevant memories and named people reach the prompt; a deleted memory never does again', async () => {
    const chat = await startChat(ollama)
    const create = async (body: object) => (await ollama.json('POST', '/memories', { cookie: chat.cookie, body })).body
    const marathon = await create({ kind: 'plan', text: 'Training for the Taipei marathon in April', label: 'marathon' })
    const cilantro = await create({ kind: 'preference', text: 'Hates cilantro' })
    await create({ kind: 'fact', text: 'Works as a nurse in Taichung' })

    const first = await say(ollama, chat, 'How should I plan my marathon training this week?')
    let prompt = lastChatSystemPrompt()
    expect(prompt).toContain('## Remembered\n- Training for the Taipei marathon in April')
    // A standing preference applies to every reply; unrelated facts stay out.
    expect(prompt).toContain('- Hates cilantro')
    expect(prompt).not.toContain('nurse')
    expect(first.sources.memories.map((m: any) => m.id)).toEqual([marathon.id, cilantro.id])

    expect((await ollama.json('DELETE', `/memories/${marathon.id}`, { cookie: chat.cookie })).status).toBe(200)
    // The reply that used it keeps its chip, but what the memory said is gone with it.
    const kept = await ollama.ctx.sql<{ sources: string }[]>`select sources::text as sources from messages where user_id = ${chat.userId} and role = 'ASSISTANT'`
    expect(kept.map((r) => r.sources).join()).toContain(marathon.id)
    expect(kept.map((r) => r.sources).join()).not.toContain('Training for the Taipei marathon')
    const second = await say(ollama, chat, 'How should I plan my marathon training this week?')
    prompt = lastChatSystemPrompt()
    expect(prompt).not.toContain('Taipei marathon')
    expect(JSON.stringify(fake.chats().at(-1)!.body)).not.toContain('Taipei marathon')
    expect(second.sources.memories.map((m: any) => m.id)).toEqual([cilantro.id])

    expect((await ollama.json('DELETE', '/memories', { cookie: chat.cookie })).body).toEqual({ deletedCount: 2 })
    const third = await say(ollama, chat, 'Anything I should eat before the marathon? No cilantro please')
    expect(lastChatSystemPrompt()).not.toContain('## Remembered')
    expect(third.sources).toEqual({ memories: [], people: [] })
  })

  test('people of the graph named in the message are sources, and their memories come along', async () => {
    const chat = await startChat(ollama)
    const sql = ollama.ctx.sql
    const [self] = await sql<{ id: string }[]>`insert into relation_nodes (character_id, user_id, name, is_self) values (${chat.characterId}, ${chat.userId}, 'Me', true) returning id`
    const [mei] = await sql<{ id: string }[]>`insert into relation_nodes (character_id, user_id, name) values (${chat.characterId}, ${chat.userId}, 'Mei') returning id`
    await sql`insert into relation_edges (character_id, source_id, target_id, types, closeness, confirmed) values (${chat.characterId}, ${self.id}, ${mei.id}, ${['sister']}, 5, true)`
    const memory = (await ollama.json('POST', '/memories', { cookie: chat.cookie, body: { kind: 'event', text: 'Starts university in March', personName: 'Mei' } })).body
    expect(memory.person).toEqual({ name: 'Mei', relationNodeId: mei.id, types: ['sister'] })

    const reply = await say(ollama, chat, 'Mei called me today')
    expect(reply.sources).toEqual({
      memories: [{ id: memory.id, label: 'Starts university in March', kind: 'event' }],
      people: [{ id: mei.id, name: 'Mei', types: ['sister'] }],
    })
    expect(lastChatSystemPrompt()).toContain('- Starts university in March (about Mei)')
  })
})

describe('the memories API', () => {
  test('list, search, edit, delete one, forget all and export', async () => {
    const { cookie } = await offline.signUp()
    const a = (await offline.json('POST', '/memories', { cookie, body: { kind: 'preference', text: 'Prefers short answers' } })).body
    const b = (await offline.json('POST', '/memories', { cookie, body: { kind: 'plan', text: '四月要跑台北馬拉松', label: '馬拉松' } })).body
    expect(a).toMatchObject({ kind: 'preference', text: 'Prefers short answers', label: 'Prefers short answers', person: null })
    expect((await memoriesOf(offline, cookie)).map((m) => m.id)).toEqual([b.id, a.id])
    expect((await memoriesOf(offline, cookie, '馬拉松')).map((m) => m.id)).toEqual([b.id])
    expect((await memoriesOf(offline, cookie, 'preference')).map((m) => m.id)).toEqual([a.id])
    expect(await memoriesOf(offline, cookie, '100%')).toEqual([])

    const edited = await offline.json('PATCH', `/memories/${a.id}`, { cookie, body: { text: 'Prefers long, detailed answers' } })
    expect(edited.body).toMatchObject({ id: a.id, text: 'Prefers long, detailed answers', label: 'Prefers long, detailed answers' })

    const exported = await offline.call('GET', '/memories/export', { cookie })
    expect(exported.headers.get('content-disposition')).toContain('attachment')
    expect((await exported.json()).memories.map((m: any) => m.id).sort()).toEqual([a.id, b.id].sort())

    expect((await offline.json('DELETE', `/memories/${a.id}`, { cookie })).body).toEqual({ deleted: true })
    expect((await offline.json('GET', `/memories/${a.id}`, { cookie })).status).toBe(404)
    expect((await offline.json('DELETE', '/memories', { cookie })).body).toEqual({ deletedCount: 1 })
    expect(await memoriesOf(offline, cookie)).toEqual([])
  })

  test('bad input gets a 400 in the error shape and changes nothing', async () => {
    const { cookie } = await offline.signUp()
    const bad = async (method: string, path: string, body: unknown) => {
      const res = await offline.json(method, path, { cookie, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, error: 'BadRequest', message: expect.any(String) })
      return res.body.message as string
    }
    expect(await bad('POST', '/memories', { kind: 'secret', text: 'x' })).toContain('kind must be one of')
    expect(await bad('POST', '/memories', { kind: 'fact', text: '' })).toContain('text must be 1 to 500')
    expect(await bad('POST', '/memories', { kind: 'fact', text: '   ' })).toBe('text must not be blank')
    expect(await bad('POST', '/memories', { kind: 'fact', text: 'x'.repeat(501) })).toContain('text must be 1 to 500')
    const m = (await offline.json('POST', '/memories', { cookie, body: { kind: 'fact', text: 'Lives in Tainan' } })).body
    expect(await bad('PATCH', `/memories/${m.id}`, {})).toContain('Nothing to change')
    expect(await bad('PATCH', `/memories/${m.id}`, { kind: 'other' })).toContain('kind must be one of')
    expect((await memoriesOf(offline, cookie))[0]).toMatchObject({ kind: 'fact', text: 'Lives in Tainan' })
  })

  test('every route is the owner’s only', async () => {
    const owner = await offline.signUp()
    const other = await offline.signUp()
    const m = (await offline.json('POST', '/memories', { cookie: owner.cookie, body: { kind: 'fact', text: 'Lives in Tainan' } })).body
    for (const [method, path, body] of [
      ['GET', `/memories/${m.id}`],
      ['PATCH', `/memories/${m.id}`, { text: 'stolen' }],
      ['DELETE', `/memories/${m.id}`],
      ['GET', '/memories/not-a-uuid'],
    ] as const) {
      const res = await offline.json(method, path, { cookie: other.cookie, body })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ statusCode: 404, error: 'NotFound', message: 'Memory not found' })
    }
    expect(await memoriesOf(offline, other.cookie)).toEqual([])
    expect((await offline.json('DELETE', '/memories', { cookie: other.cookie })).body).toEqual({ deletedCount: 0 })
    for (const [method, path] of [['GET', '/memories'], ['POST', '/memories'], ['GET', `/memories/${m.id}`], ['DELETE', '/memories'], ['GET', '/memories/export']] as const)
      expect((await offline.json(method, path, { body: method === 'POST' ? { kind: 'fact', text: 'x' } : undefined })).status).toBe(401)
    expect((await memoriesOf(offline, owner.cookie))[0]).toMatchObject({ id: m.id, text: 'Lives in Tainan' })
  })

  test('the routes are in the OpenAPI document', async () => {
    const doc = (await offline.json('GET', '/docs/json')).body
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/memories', '/api/v1/memories/{id}', '/api/v1/memories/export']))
  })
})
