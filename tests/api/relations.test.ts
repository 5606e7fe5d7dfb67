import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { chatExportFixtures } from '../helpers/chatExportFixtures'

const fixturePaths = chatExportFixtures()
// A hiking group: with Dana as the user, Marcus, Priya and Sam are the people.
const GROUP = 'whatsapp-ios-en-12h.txt'
const USER = 'Dana Whitfield'
const PEOPLE = ['Marcus Lee', 'Priya Raman', "Sam O'Neill"]

let app: TestApp

beforeAll(async () => {
  app = await startTestApp()
})
afterAll(async () => {
  await app?.close()
})

/** The app polls readiness every few seconds; the tests poll quicker. */
const POLL = { timeout: 20_000, interval: 30 }

const getRelations = (cookie: string, id: string) => app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })
const patchRelations = (cookie: string, id: string, body: unknown) => app.json('PATCH', `/chatbots/characters/${id}/relations`, { cookie, body })

async function character(cookie: string): Promise<string> {
  const res = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie,
    body: { userName: 'Dana', idealSelfDescription: 'A calm organiser who still has time for friends' },
  })
  await vi.waitFor(async () => expect((await app.json('GET', `/chatbots/characters/${res.body.id}?selectIsReady=true`, { cookie })).body.isReady).toBe(true), POLL)
  return res.body.id
}

/** The relations once the import `importId` has been analysed. */
const analysed = (cookie: string, id: string, importId: string) =>
  vi.waitFor(async () => {
    const { body } = await getRelations(cookie, id)
    expect(body).toMatchObject({ isReady: true, import: { id: importId } })
    return body
  }, POLL)

async function importGroup(cookie: string, id: string) {
  const form = new FormData()
  form.append('files', new File([readFileSync(fixturePaths.get(GROUP)!)], GROUP))
  form.append('userName', USER)
  const res = await app.json('POST', `/chatbots/characters/${id}/chat-history`, { cookie, form })
  expect(res.status).toBe(202)
  return analysed(cookie, id, res.body.importId)
}

/** The graph as {name: [types, closeness, confirmed]}. */
function byName(data: any) {
  const names = new Map(data.nodes.map((n: any) => [n.id, n.properties.name]))
  return Object.fromEntries(data.relationships.map((r: any) => [names.get(r.target), [r.types, r.properties.closeness, r.properties.confirmed]]))
}

async function developer() {
  const made = await app.makeUser({ role: 'DEVELOPER' })
  return app.signIn(made.email, made.password)
}

describe('reading the graph', () => {
  test('before any import: not ready, an empty graph, and nothing to save', async () => {
    const { cookie } = await app.signUp()
    const id = await character(cookie)
    const { status, body } = await getRelations(cookie, id)
    expect(status).toBe(200)
    expect(body).toEqual({ isReady: false, data: { nodes: [], relationships: [] }, import: null })
    const early = await patchRelations(cookie, id, { nodes: [], relationships: [] })
    expect(early.status).toBe(409)
  })

  test('after an import: the user is one node, and every relationship goes from them to one person', async () => {
    const { cookie } = await app.signUp()
    const id = await character(cookie)
    const { data } = await importGroup(cookie, id)
    const [self, ...others] = data.nodes
    expect(self).toEqual({ id: expect.any(String), properties: { name: USER, isSelf: true } })
    expect(others.map((n: any) => n.properties).sort((a: any, b: any) => a.name.localeCompare(b.name))).toEqual(
      PEOPLE.map((name) => ({ name, isSelf: false })),
    )
    expect(data.relationships).toHaveLength(PEOPLE.length)
    for (const r of data.relationships) {
      expect(r).toEqual({
        id: expect.any(String),
        source: self.id,
        target: expect.any(String),
        types: [expect.any(String)],
        properties: { closeness: expect.any(Number), confirmed: false },
      })
      expect(others.map((n: any) => n.id)).toContain(r.target)
    }
  })

  test("another user's character, an unknown one and a malformed id are not found; signed out is 401", async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const id = await character(a.cookie)
    const { data } = await importGroup(a.cookie, id)
    expect((await getRelations(b.cookie, id)).status).toBe(404)
    expect((await patchRelations(b.cookie, id, data)).status).toBe(404)
    expect((await getRelations(a.cookie, crypto.randomUUID())).status).toBe(404)
    expect((await getRelations(a.cookie, 'abc')).status).toBe(404)
    expect((await app.json('GET', `/chatbots/characters/${id}/relations`)).status).toBe(401)
    // B's attempt changed nothing.
    expect((await getRelations(a.cookie, id)).body.data).toEqual(data)
  })
})

describe('saving the graph', () => {
  let cookie: string
  let id: string
  let data: any
  beforeAll(async () => {
    cookie = await developer()
    id = await character(cookie)
    ;({ data } = await importGroup(cookie, id))
  })

  const idOf = (name: string) => data.nodes.find((n: any) => n.properties.name === name).id
  const selfId = () => data.nodes.find((n: any) => n.properties.isSelf).id
  const relation = (name: string, types: string[], closeness: unknown) => ({
    source: selfId(),
    target: idOf(name),
    types,
    properties: { closeness },
  })

  test.each([
    ['an unknown node', () => ({ nodes: data.nodes, relationships: [{ ...relation('Marcus Lee', ['COLLEAGUE'], 3), target: crypto.randomUUID() }] }), /^Unknown node id /],
    ['an unknown node in nodes', () => ({ nodes: [...data.nodes, { id: 'stranger', properties: { name: 'Stranger' } }], relationships: [relation('Marcus Lee', ['COLLEAGUE'], 3)] }), 'Unknown node id stranger'],
    ['an unknown type', () => ({ relationships: [relation('Marcus Lee', ['BEST_BUDDY'], 3)] }), 'Unknown relationship type BEST_BUDDY'],
    ['no type', () => ({ relationships: [relation('Marcus Lee', [], 3)] }), 'Marcus Lee needs at least one relationship type'],
    ['a type twice', () => ({ relationships: [relation('Marcus Lee', ['COLLEAGUE', 'COLLEAGUE'], 3)] }), 'Marcus Lee has the type COLLEAGUE twice'],
    ['closeness 0', () => ({ relationships: [relation('Marcus Lee', ['COLLEAGUE'], 0)] }), 'closeness must be a whole number from 1 to 5 (Marcus Lee)'],
    ['closeness 6', () => ({ relationships: [relation('Marcus Lee', ['COLLEAGUE'], 6)] }), 'closeness must be a whole number from 1 to 5 (Marcus Lee)'],
    ['closeness 2.5', () => ({ relationships: [relation('Marcus Lee', ['COLLEAGUE'], 2.5)] }), 'closeness must be a whole number from 1 to 5 (Marcus Lee)'],
    ['closeness as text', () => ({ relationships: [relation('Marcus Lee', ['COLLEAGUE'], 'close')] }), 'closeness must be a whole number from 1 to 5'],
    ['removing everyone', () => ({ nodes: data.nodes, relationships: [] }), 'There must be at least one relation'],
    ['no relationships at all', () => ({ nodes: data.nodes }), 'relationships is required'],
  ])('400 for %s; nothing changes', async (_, body, message) => {
    const res = await patchRelations(cookie, id, body())
    expect(res.status).toBe(400)
    if (typeof message === 'string') expect(res.body.message).toBe(message)
    else expect(res.body.message).toMatch(message)
    expect((await getRelations(cookie, id)).body.data).toEqual(data)
  })

  test('a valid graph replaces the old one at once and reaches the character prompt', async () => {
    const edit = {
      nodes: data.nodes.filter((n: any) => n.properties.name !== 'Priya Raman'),
      relationships: [
        { ...relation('Marcus Lee', ['COLLEAGUE', 'MENTOR_ADVISOR'], 5), id: data.relationships.find((r: any) => r.target === idOf('Marcus Lee')).id },
        relation("Sam O'Neill", ['SIBLINGS'], 2),
      ],
    }
    // The editor may wrap the graph as the GET returns it.
    const saved = await patchRelations(cookie, id, { data: edit })
    expect(saved.status).toBe(200)
    expect(saved.body.isReady).toBe(true)
    expect(byName(saved.body.data)).toEqual({
      'Marcus Lee': [['COLLEAGUE', 'MENTOR_ADVISOR'], 5, true],
      "Sam O'Neill": [['SIBLINGS'], 2, true],
    })
    expect(saved.body.data.nodes.map((n: any) => n.properties.name).sort()).toEqual([USER, 'Marcus Lee', "Sam O'Neill"].sort())
    expect((await getRelations(cookie, id)).body.data).toEqual(saved.body.data)
    // Ids stay what they were: the editor can save again without reloading.
    expect(saved.body.data.relationships.find((r: any) => r.target === idOf('Marcus Lee')).id).toBe(edit.relationships[0].id)

    const { body } = await app.json('GET', `/chatbots/characters/${id}?includePrompt=true`, { cookie })
    expect(body.prompt).toContain('Marcus Lee: colleague, mentor advisor')
    expect(body.prompt).toContain("Sam O'Neill: siblings")
    expect(body.prompt).not.toContain('Priya Raman')
    data = saved.body.data
  })

  test('a new import keeps what the user confirmed and proposes the people it finds again', async () => {
    expect((await patchRelations(cookie, id, { relationships: [relation('Marcus Lee', ['COLLEAGUE', 'MENTOR_ADVISOR'], 5)] })).status).toBe(200)
    const form = new FormData()
    form.append('files', new File([readFileSync(fixturePaths.get(GROUP)!)], GROUP))
    form.append('userName', USER)
    await app.ctx.jobs.stop()
    let started: any
    try {
      started = await app.json('POST', `/chatbots/characters/${id}/chat-history`, { cookie, form })
      expect(started.status).toBe(202)
      // While it is analysed the graph cannot be saved: the analysis would overwrite it.
      const during = await patchRelations(cookie, id, { relationships: [relation('Marcus Lee', ['COLLEAGUE'], 1)] })
      expect(during.status).toBe(409)
      expect((await getRelations(cookie, id)).body.isReady).toBe(false)
    } finally {
      app.ctx.jobs.start(app.ctx)
    }
    const after = await analysed(cookie, id, started.body.importId)
    const graph = byName(after.data)
    expect(Object.keys(graph).sort()).toEqual(PEOPLE)
    expect(graph['Marcus Lee']).toEqual([['COLLEAGUE', 'MENTOR_ADVISOR'], 5, true])
    expect(graph['Priya Raman'][2]).toBe(false)
  })
})
