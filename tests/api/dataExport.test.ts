import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { unzipSync, strFromU8 } from 'fflate'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { fullAccount, GROUP_PEOPLE, type FullAccount } from '../helpers/fullAccount'

let app: TestApp
let person: FullAccount
beforeAll(async () => {
  app = await startTestApp()
  person = await fullAccount(app)
}, 120_000)
afterAll(() => app?.close())

const POLL = { timeout: 30_000, interval: 50 }

async function readyExport(cookie: string, language?: string) {
  const started = await app.json('POST', '/self/data-exports', { cookie, body: language ? { language } : {} })
  expect(started.status).toBe(202)
  expect(started.body).toMatchObject({ id: expect.any(String), status: 'PENDING', downloadUrl: null })
  return vi.waitFor(async () => {
    const { body } = await app.json('GET', '/self/data-exports/latest', { cookie })
    expect(body.status).toBe('READY')
    return body
  }, POLL)
}

async function download(cookie: string, id: string) {
  const res = await app.call('GET', `/self/data-exports/${id}/download`, { cookie })
  return { res, files: res.status === 200 ? unzipSync(new Uint8Array(await res.arrayBuffer())) : {} }
}

describe('Download my data', () => {
  test('the archive holds the profile, characters with prompts, every conversation and message, people, imports, memories and images', async () => {
    const ready = await readyExport(person.cookie, 'en')
    expect(ready.progress.done).toBe(ready.progress.total)
    expect(ready.progress.total).toBeGreaterThanOrEqual(2)
    expect(new Date(ready.expiresAt).getTime() - new Date(ready.readyAt).getTime()).toBe(24 * 3600 * 1000)
    expect(ready.downloadUrl).toBe(`/api/v1/self/data-exports/${ready.id}/download`)

    const { res, files } = await download(person.cookie, ready.id)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="ideal-self-data-\d{4}-\d{2}-\d{2}\.zip"$/)
    const names = Object.keys(files).sort()
    for (const name of ['README.txt', 'profile.json', 'characters.json', 'relations.json', 'chat-imports.json', 'memories.json'])
      expect(names).toContain(name)

    const text = (name: string) => strFromU8(files[name])
    const profile = JSON.parse(text('profile.json'))
    expect(profile.user).toMatchObject({ id: person.userId, email: person.email, name: person.secrets.name })
    const characters = JSON.parse(text('characters.json'))
    expect(characters).toHaveLength(1)
    expect(characters[0].id).toBe(person.characterId)
    expect(characters[0].prompt).toEqual(expect.any(String))
    expect(characters[0].prompt.length).toBeGreaterThan(20)
    const relations = JSON.parse(text('relations.json'))
    const people = relations[0].graph.nodes.filter((n: any) => !n.properties.isSelf).map((n: any) => n.properties.name)
    expect(people.sort()).toEqual([...GROUP_PEOPLE].sort())
    expect(relations[0].graph.relationships.every((r: any) => r.properties.confirmed)).toBe(true)
    const imports = JSON.parse(text('chat-imports.json'))
    expect(imports[0]).toMatchObject({ characterId: person.characterId, status: 'SUCCEEDED' })
    expect(imports[0].people.sort()).toEqual([...GROUP_PEOPLE].sort())
    expect(imports[0].speakingStyle).not.toBeNull()
    const memories = JSON.parse(text('memories.json'))
    expect(memories.map((m: any) => m.text)).toContain(person.secrets.memory)

    const conversationJson = names.filter((n) => /^conversations\/\d{4}-[0-9a-f-]{36}\.json$/.test(n))
    expect(conversationJson).toHaveLength(1)
    const conversation = JSON.parse(text(conversationJson[0]))
    expect(conversation).toMatchObject({ id: person.conversationId, name: person.secrets.conversation })
    expect(conversation.messages.map((m: any) => m.id)).toEqual(person.messageIds)
    const [mine, reply] = conversation.messages
    expect(mine).toMatchObject({ role: 'USER', text: person.secrets.message, images: [`images/${person.fileId}.png`] })
    expect(new Date(mine.createdAt).toISOString()).toBe(mine.createdAt)
    expect(reply.role).toBe('ASSISTANT')
    expect(reply.feedback.map((f: any) => f.text)).toEqual([person.secrets.feedback])

    const markdown = text(conversationJson[0].replace(/\.json$/, '.md'))
    expect(markdown).toContain(`# ${person.secrets.conversation}`)
    expect(markdown).toContain(`> ${person.secrets.message}`)
    expect(markdown).toContain(`](../images/${person.fileId}.png)`)
    expect(markdown).toContain(person.secrets.feedback)

    expect(files[`images/${person.fileId}.png`]).toEqual(person.image)
    const readme = text('README.txt')
    expect(readme).toContain('Ideal Self — your data')
    expect(readme).toContain('Conversations: 1. Messages: 2. Characters: 1. People: 3. Memories: 1. Images: 1.')
  }, 60_000)

  test('the README speaks the language asked for (zh-TW, zh-CN) and falls back to the story language', async () => {
    const zhTW = await readyExport(person.cookie, 'zh-TW')
    expect(strFromU8((await download(person.cookie, zhTW.id)).files['README.txt'])).toContain('你的資料')
    const zhCN = await readyExport(person.cookie, 'zh-CN')
    expect(strFromU8((await download(person.cookie, zhCN.id)).files['README.txt'])).toContain('你的数据')
    // The older archive is gone once a newer one is ready: its link answers 410.
    expect((await app.json('GET', `/self/data-exports/${zhTW.id}/download`, { cookie: person.cookie })).status).toBe(410)
  }, 60_000)

  test('pressing twice builds once; the link ends after 24 hours with 410 and a new archive can be built', async () => {
    const { cookie } = await app.signUp()
    const a = await app.json('POST', '/self/data-exports', { cookie, body: {} })
    const b = await app.json('POST', '/self/data-exports', { cookie })
    expect(b.body.id).toBe(a.body.id)
    const ready = await vi.waitFor(async () => {
      const { body } = await app.json('GET', '/self/data-exports/latest', { cookie })
      expect(body.status).toBe('READY')
      return body
    }, POLL)
    await app.ctx.sql`update data_exports set expires_at = now() - interval '1 second' where id = ${ready.id}`
    const gone = await app.json('GET', `/self/data-exports/${ready.id}/download`, { cookie })
    expect(gone.status).toBe(410)
    expect(gone.body).toEqual({ statusCode: 410, error: 'Gone', message: 'This download link has expired; request a new archive' })
    const latest = await app.json('GET', '/self/data-exports/latest', { cookie })
    expect(latest.body).toMatchObject({ expired: true, downloadUrl: null })
    const again = await app.json('POST', '/self/data-exports', { cookie })
    expect(again.body.id).not.toBe(ready.id)
  }, 60_000)

  test('owner only: another person, staff and anonymous callers cannot see or download an archive', async () => {
    const ready = await readyExport(person.cookie)
    const other = await app.signUp()
    const admin = await app.makeUser({ role: 'ADMIN' })
    const dev = await app.makeUser({ role: 'DEVELOPER' })
    for (const cookie of [other.cookie, await app.signIn(admin.email, admin.password), await app.signIn(dev.email, dev.password)]) {
      const res = await app.json('GET', `/self/data-exports/${ready.id}/download`, { cookie })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ statusCode: 404, error: 'NotFound', message: 'Data export not found' })
      expect((await app.json('GET', '/self/data-exports/latest', { cookie })).status).toBe(404)
    }
    expect((await app.json('GET', `/self/data-exports/${ready.id}/download`)).status).toBe(401)
    for (const id of ['x', '0', '../etc', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])
      expect((await app.json('GET', `/self/data-exports/${id}/download`, { cookie: person.cookie })).status).toBe(404)
  }, 60_000)

  test('the body is validated: an unknown language is a 400 with the shared error shape', async () => {
    for (const language of ['fr', 'EN', '', 42, null]) {
      const res = await app.json('POST', '/self/data-exports', { cookie: person.cookie, body: { language } })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String), message: expect.any(String) })
    }
  })
})
