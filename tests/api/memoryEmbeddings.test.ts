// Recall by meaning: with an embedding model and pgvector (the embedded database always has it), a memory that
// shares no word with the message still reaches the prompt; without them, or when the model fails, text search
// carries on alone.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { allEvents, memoryExtractionsIdle, NOW_TEXT, startChat, type ChatSetup } from '../unit/chat/chatFixtures'
import { embeddingsStored } from '../../api/memory/embeddings'
import { recallMemories } from '../../api/memory/recall'

const MODEL = 'llama3.2:1b'
// Three directions of meaning: running, food, everything else.
const TOPICS = [/marathon|run|jog|race|legs|跑/i, /cilantro|dinner|eat|food|cook/i]
const topicVector = (text: string) => {
  const v = TOPICS.map((re) => (re.test(text) ? 1 : 0))
  return [...v, v.some(Boolean) ? 0 : 1]
}

let app: TestApp
let fake: FakeModelServer
let failEmbeddings = false

beforeAll(async () => {
  fake = startFakeOllama({
    models: [MODEL],
    embed: (text) => {
      if (failEmbeddings) throw new Error('embedding model crashed')
      return topicVector(text)
    },
  })
  // The embedded database, whatever DATABASE_URL says: it always has pgvector.
  app = await startTestApp({ DATABASE_URL: '' }, { model: createOllamaProvider({ host: fake.url, model: MODEL, embedModel: 'embed-test' }) })
})
afterAll(async () => {
  await app?.close()
  fake?.stop()
})

async function say(chat: ChatSetup, text: string) {
  const res = await app.call('POST', `${chat.path}/chat`, { cookie: chat.cookie, body: { text, currentDateTime: NOW_TEXT } })
  const events = await allEvents(res)
  expect(events.at(-1)!.event).toBe('done')
  await memoryExtractionsIdle(app)
  return events[0].data
}

const lastSystemPrompt = () => fake.chats().filter((r) => !r.body.format).at(-1)!.body.messages[0].content as string

describe('recall by meaning', () => {
  test('a memory sharing no word with the message is recalled through its embedding', async () => {
    expect(await embeddingsStored(app.ctx.sql)).toBe(true)
    const chat = await startChat(app)
    const memory = (await app.json('POST', '/memories', { cookie: chat.cookie, body: { kind: 'plan', text: 'Training for the Taipei marathon in April' } })).body
    await expect
      .poll(async () => (await app.ctx.sql`select model from memory_embeddings where memory_id = ${memory.id}`).map((r) => r.model))
      .toEqual(['embed-test'])

    const message = 'My legs are sore after a long jog'
    // Text search alone finds nothing: no word in common.
    expect((await recallMemories(app.ctx.sql, { userId: chat.userId, characterId: chat.characterId, text: message })).memories).toEqual([])

    const start = await say(chat, message)
    expect(start.sources.memories.map((m: any) => m.id)).toEqual([memory.id])
    expect(lastSystemPrompt()).toContain('- Training for the Taipei marathon in April')
    const embedCalls = fake.requests.filter((r) => r.path === '/api/embed')
    expect(embedCalls.at(-1)!.body).toMatchObject({ model: 'embed-test', input: [message] })

    // Unrelated in meaning: stays out.
    expect((await say(chat, 'What should I cook for dinner?')).sources.memories).toEqual([])
  })

  test('an edited memory is found by its new meaning, not the old one', async () => {
    const chat = await startChat(app)
    const memory = (await app.json('POST', '/memories', { cookie: chat.cookie, body: { kind: 'plan', text: 'Training for a marathon' } })).body
    await expect.poll(async () => (await app.ctx.sql`select 1 from memory_embeddings where memory_id = ${memory.id}`).length).toBe(1)
    await app.json('PATCH', `/memories/${memory.id}`, { cookie: chat.cookie, body: { text: 'Learning to cook Thai food' } })
    await expect
      .poll(async () => (await app.ctx.sql`select text from memory_embeddings where memory_id = ${memory.id}`).map((r) => r.text))
      .toEqual(['Learning to cook Thai food'])
    expect((await say(chat, 'My legs are sore after a long jog')).sources.memories).toEqual([])
    expect((await say(chat, 'Any ideas for dinner tonight?')).sources.memories.map((m: any) => m.id)).toEqual([memory.id])
  })

  test('when the embedding model fails, replies and text search go on without it', async () => {
    const chat = await startChat(app)
    failEmbeddings = true
    try {
      const memory = (await app.json('POST', '/memories', { cookie: chat.cookie, body: { kind: 'plan', text: 'Training for the Taipei marathon in April' } })).body
      const start = await say(chat, 'Any news on my marathon plan?')
      expect(start.sources.memories.map((m: any) => m.id)).toEqual([memory.id])
      expect((await say(chat, 'My legs are sore after a long jog')).sources.memories).toEqual([])
    } finally {
      failEmbeddings = false
      fake.reply(defaultReply)
    }
  })
})
