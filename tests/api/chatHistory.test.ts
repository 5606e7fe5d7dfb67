import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { chatExportFixtures } from '../helpers/chatExportFixtures'
import { defaultReply, startFakeOllama, type FakeModelServer, type ReplyInput } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { claimJob, type JobRow } from '../../api/jobs/queue'
import { ANALYZE_CHAT_HISTORY } from '../../api/chat-import/analysis/importJob'
import { RELATIONSHIP_TYPES } from '../../api/content/definitions'
import iconv from 'iconv-lite'

const fixturePaths = chatExportFixtures()
const fixture = (name: string) => readFileSync(fixturePaths.get(name)!)
const expected = (name: string) => JSON.parse(readFileSync(`${fixturePaths.get(name)!}.expected.json`, 'utf8'))
const fixtures = [...fixturePaths.keys()]

let app: TestApp

beforeAll(async () => {
  app = await startTestApp()
})
afterAll(async () => {
  await app?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The app polls readiness every few seconds; the tests poll quicker. */
const POLL = { timeout: 20_000, interval: 30 }

type Upload = [name: string, content: Uint8Array | string]

function form(files: Upload[], userName?: string): FormData {
  const data = new FormData()
  for (const [name, content] of files) data.append('files', new File([content], name, { type: 'text/plain' }))
  if (userName !== undefined) data.append('userName', userName)
  return data
}

const fromFixtures = (...names: string[]): Upload[] => names.map((n) => [n, fixture(n)])

async function characterOf(target: TestApp, cookie: string): Promise<string> {
  const res = await target.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie,
    body: { userName: 'Mia', idealSelfDescription: 'Someone who keeps in touch with the people she loves' },
  })
  expect(res.status).toBe(200)
  const id = res.body.id as string
  await vi.waitFor(async () => expect((await target.json('GET', `/chatbots/characters/${id}?selectIsReady=true`, { cookie })).body.isReady).toBe(true), POLL)
  return id
}

async function developer(target: TestApp) {
  const made = await target.makeUser({ role: 'DEVELOPER' })
  return target.signIn(made.email, made.password)
}

const analyzeNames = (target: TestApp, cookie: string, id: string, files: Upload[]) =>
  target.json('POST', `/chatbots/characters/${id}/chat-history?analyzeNameOnly=true`, { cookie, form: form(files) })

const upload = (target: TestApp, cookie: string, id: string, files: Upload[], userName?: string) =>
  target.json('POST', `/chatbots/characters/${id}/chat-history`, { cookie, form: form(files, userName) })

const relationsReady = (target: TestApp, cookie: string, id: string) =>
  vi.waitFor(async () => {
    const { body } = await target.json('GET', `/chatbots/characters/${id}/relations`, { cookie })
    expect(body.isReady).toBe(true)
    return body
  }, POLL)

const importRows = (target: TestApp, characterId: string) =>
  target.ctx.sql<{ id: string; status: string; error: string | null }[]>`
    select id, status, error from chat_history_imports where character_id = ${characterId} order by created_at`

describe('analyzeNameOnly', () => {
  let cookie: string
  let id: string
  beforeAll(async () => {
    ;({ cookie } = await app.signUp())
    id = await characterOf(app, cookie)
  })

  test.each(fixtures)('%s: the speakers of an export, or the file listed as erroneous', async (name) => {
    const { status, body } = await analyzeNames(app, cookie, id, fromFixtures(name))
    expect(status).toBe(200)
    const want = expected(name)
    if (want.error)
      expect(body).toEqual({
        hasError: true,
        erroneousFiles: [{ fileName: name, reason: 'NotAChatExport', message: `${name} does not have the correct chat history format` }],
        names: [],
      })
    else expect(body).toEqual({ hasError: false, erroneousFiles: [], names: want.speakers })
  })

  test('a good and a bad file: the names of the good one, the bad one listed; nothing is stored', async () => {
    const { body } = await analyzeNames(app, cookie, id, fromFixtures('line-ios-en.txt', 'malformed-csv.txt', 'whatsapp-android-zh-CN-12h.txt'))
    expect(body).toEqual({
      hasError: true,
      erroneousFiles: [{ fileName: 'malformed-csv.txt', reason: 'NotAChatExport', message: expect.any(String) }],
      names: [...expected('line-ios-en.txt').speakers, ...expected('whatsapp-android-zh-CN-12h.txt').speakers],
    })
    expect(await importRows(app, id)).toEqual([])
  })

  test('a name in two files is listed once, in order of first appearance', async () => {
    const { body } = await analyzeNames(app, cookie, id, fromFixtures('whatsapp-android-en-12h.txt', 'line-ios-en.txt', 'whatsapp-android-en-12h.txt'))
    expect(body.names).toEqual(['Grace Kim', 'Leo Martínez', 'Mia Chen', 'Alex Turner'])
  })
})

describe('what an upload may be', () => {
  let cookie: string
  let id: string
  beforeAll(async () => {
    ;({ cookie } = await app.signUp())
    id = await characterOf(app, cookie)
  })

  test('1 to 3 .txt files', async () => {
    const four = await analyzeNames(app, cookie, id, fromFixtures('line-ios-en.txt', 'line-ios-ja.txt', 'line-desktop-en.txt', 'line-android-zh-TW.txt'))
    expect(four.status).toBe(400)
    expect(four.body.message).toBe('at most 3 files')
    const none = await app.json('POST', `/chatbots/characters/${id}/chat-history?analyzeNameOnly=true`, { cookie, form: form([], 'x') })
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('files is required')
    const csv = await analyzeNames(app, cookie, id, [['chat.csv', fixture('line-ios-en.txt')]])
    expect(csv.status).toBe(400)
    expect(csv.body.message).toBe('chat.csv: only .txt files can be uploaded')
  })

  test('a binary file named .txt is marked as not text; the other files of the batch go on', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe])
    const res = await analyzeNames(app, cookie, id, [...fromFixtures('line-ios-en.txt'), ['photo.txt', png], ['nul.txt', 'hello\u0000world']])
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      hasError: true,
      erroneousFiles: [
        { fileName: 'photo.txt', reason: 'NotText', message: 'photo.txt is not a text file' },
        { fileName: 'nul.txt', reason: 'NotText', message: 'nul.txt is not a text file' },
      ],
      names: expected('line-ios-en.txt').speakers,
    })
    const real = await upload(app, cookie, id, [...fromFixtures('line-ios-en.txt'), ['photo.txt', png]], 'Mia Chen')
    expect(real.status).toBe(400)
    expect(real.body.message).toBe('photo.txt is not a text file')
  })

  test('UTF-16 with and without BOM, Big5, GBK and Latin-1 exports are read', async () => {
    const text = (name: string) => fixture(name).toString('utf8').replace(/^\ufeff/, '')
    const cases: [string, Uint8Array, string][] = [
      ['line-ios-en.txt', iconv.encode(text('line-ios-en.txt'), 'utf16le', { addBOM: true }), 'utf-16 with BOM'],
      ['line-ios-en.txt', iconv.encode(text('line-ios-en.txt'), 'utf16be'), 'utf-16BE without BOM'],
      ['whatsapp-android-en-24h.txt', iconv.encode(text('whatsapp-android-en-24h.txt'), 'utf16le'), 'utf-16LE without BOM'],
      ['line-android-zh-TW.txt', iconv.encode(text('line-android-zh-TW.txt'), 'big5'), 'Big5'],
      ['whatsapp-android-zh-CN-12h.txt', iconv.encode(text('whatsapp-android-zh-CN-12h.txt'), 'gbk'), 'GBK'],
      ['whatsapp-android-en-24h.txt', iconv.encode(text('whatsapp-android-en-24h.txt'), 'latin1'), 'Latin-1'],
    ]
    for (const [name, bytes, label] of cases) {
      const { status, body } = await analyzeNames(app, cookie, id, [[name, bytes]])
      expect(status, label).toBe(200)
      expect(body, label).toEqual({ hasError: false, erroneousFiles: [], names: expected(name).speakers })
    }
  })

  test('each file within CHAT_HISTORY_MAX_BYTES', async () => {
    const small = await startTestApp({ CHAT_HISTORY_MAX_BYTES: '600' })
    try {
      const { cookie: own } = await small.signUp()
      const character = await characterOf(small, own)
      const fits = await analyzeNames(small, own, character, fromFixtures('line-ios-en.txt'))
      expect(fits.body.names).toEqual(expected('line-ios-en.txt').speakers)
      const big = await analyzeNames(small, own, character, fromFixtures('line-ios-en.txt', 'whatsapp-ios-en-12h.txt'))
      expect(big.status).toBe(200)
      expect(big.body).toEqual({
        hasError: true,
        erroneousFiles: [{ fileName: 'whatsapp-ios-en-12h.txt', reason: 'TooLarge', message: 'whatsapp-ios-en-12h.txt is larger than 600 B' }],
        names: expected('line-ios-en.txt').speakers,
      })
    } finally {
      await small.close()
    }
  })

  test('a real upload needs the chosen name, one of the names found, and only chat exports', async () => {
    const missing = await upload(app, cookie, id, fromFixtures('line-ios-en.txt'))
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('userName is required')
    const unknown = await upload(app, cookie, id, fromFixtures('line-ios-en.txt'), 'Grace Kim')
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('userName must be one of the names found in the files')
    const bad = await upload(app, cookie, id, fromFixtures('line-ios-en.txt', 'malformed-random.txt', 'malformed-empty.txt'), 'Mia Chen')
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('These files do not have the correct chat history format: malformed-random.txt, malformed-empty.txt')
    expect(await importRows(app, id)).toEqual([])
    expect((await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })).body.isReady).toBe(false)
  })
})

describe('ownership', () => {
  test("another user's character, or no character at all, is not found", async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const id = await characterOf(app, a.cookie)
    for (const path of [`/chatbots/characters/${id}/chat-history?analyzeNameOnly=true`, `/chatbots/characters/${id}/chat-history`]) {
      const res = await app.json('POST', path, { cookie: b.cookie, form: form(fromFixtures('line-ios-en.txt'), 'Mia Chen') })
      expect(res.status).toBe(404)
    }
    expect((await app.json('GET', `/chatbots/characters/${id}/chat-history`, { cookie: b.cookie })).status).toBe(404)
    expect((await upload(app, a.cookie, crypto.randomUUID(), fromFixtures('line-ios-en.txt'), 'Mia Chen')).status).toBe(404)
    expect((await upload(app, a.cookie, 'not-an-id', fromFixtures('line-ios-en.txt'), 'Mia Chen')).status).toBe(404)
    expect((await app.json('POST', `/chatbots/characters/${id}/chat-history`, { form: form(fromFixtures('line-ios-en.txt'), 'Mia Chen') })).status).toBe(401)
    expect(await importRows(app, id)).toEqual([])
  })
})

describe('the analysis job', () => {
  const files = ['line-ios-en.txt', 'whatsapp-android-en-12h.txt']
  // Mia is in the LINE chat; the WhatsApp chat between Grace and Leo has no "Mia Chen", so both of them are people.
  const people = ['Alex Turner', 'Grace Kim', 'Leo Martínez']

  test('end to end: the people of the chats, the speaking style on the character and in its prompt', async () => {
    const cookie = await developer(app)
    const id = await characterOf(app, cookie)
    const accepted = await upload(app, cookie, id, fromFixtures(...files), 'Mia Chen')
    expect(accepted.status).toBe(202)
    expect(accepted.body).toEqual({ importId: expect.any(String), status: 'PENDING' })

    const relations = await relationsReady(app, cookie, id)
    const self = relations.data.nodes.find((n: any) => n.properties.isSelf)
    expect(self.properties.name).toBe('Mia Chen')
    const names = new Map(relations.data.nodes.map((n: any) => [n.id, n.properties.name]))
    expect(relations.data.nodes.map((n: any) => n.properties.name).sort()).toEqual(['Mia Chen', ...people].sort())
    expect(relations.data.relationships.map((r: any) => names.get(r.target)).sort()).toEqual(people)
    for (const r of relations.data.relationships) {
      expect(r.source).toBe(self.id)
      expect(r.types.length).toBeGreaterThan(0)
      for (const type of r.types) expect(RELATIONSHIP_TYPES).toContain(type)
      expect([1, 2, 3, 4, 5]).toContain(r.properties.closeness)
      expect(r.properties.confirmed).toBe(false)
    }
    expect(relations.import).toEqual({ id: accepted.body.importId, status: 'SUCCEEDED', error: null })

    const [{ speaking_style: style }] = await app.ctx.sql<{ speaking_style: any }[]>`select speaking_style from characters where id = ${id}`
    expect(style.summary).toContain('English')
    expect(style.stats['language mix']).toBe('English 100%')
    expect(style.stats['messages measured']).toBe(4)
    // Mia's own words, never Alex's, and no call record.
    expect(style.samples.length).toBeGreaterThan(0)
    for (const sample of style.samples) expect(['morning! did you see the snow? ❄️', 'Shopping list for tonight:\n- tofu\n- scallions\n- rice cakes', 'oops, wrong photo 😅']).toContain(sample)

    const { body: character } = await app.json('GET', `/chatbots/characters/${id}?includePrompt=true`, { cookie })
    expect(character.prompt).toContain(style.summary)
    expect(character.prompt).toContain('oops, wrong photo 😅')
    // The proposed people are in the prompt until the user confirms their own graph.
    for (const name of people) expect(character.prompt).toContain(`${name}: `)
    expect(character.characterGenerationJobs.map((j: any) => [j.kind, j.status])).toEqual([
      ['build-character', 'SUCCEEDED'],
      [ANALYZE_CHAT_HISTORY, 'SUCCEEDED'],
    ])
    expect(character.stageCompletions.map((s: any) => s.stage)).toContain('UPLOAD_CHAT_HISTORY')

    const [listed] = (await app.json('GET', `/chatbots/characters/${id}/chat-history`, { cookie })).body
    expect(listed).toMatchObject({
      id: accepted.body.importId,
      userName: 'Mia Chen',
      status: 'SUCCEEDED',
      fileCount: 2,
      messageCount: expected(files[0]).messageCount + expected(files[1]).messageCount,
      userMessageCount: 4,
      peopleCount: 3,
      files: [
        { fileName: files[0], platform: 'line', messageCount: expected(files[0]).messageCount, sizeBytes: fixture(files[0]).length },
        { fileName: files[1], platform: 'whatsapp', messageCount: expected(files[1]).messageCount, sizeBytes: fixture(files[1]).length },
      ],
    })
    // The exports hold other people's messages: they leave storage once analysed.
    expect(await app.ctx.sql`select 1 from chat_history_files where import_id = ${listed.id} and storage_key is not null`).toHaveLength(0)
  })

  test('relations are not ready until the job has run; a job whose worker died is finished by the next one', async () => {
    const { cookie } = await app.signUp()
    const id = await characterOf(app, cookie)
    await app.ctx.jobs.stop()
    try {
      const accepted = await upload(app, cookie, id, fromFixtures(...files), 'Mia Chen')
      expect(accepted.status).toBe(202)
      expect((await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })).body).toMatchObject({
        isReady: false,
        import: { status: 'PENDING' },
      })
      // A worker takes the job and dies with it: the job stays RUNNING under its lease.
      const orphan = await claimJob(app.ctx.sql, [ANALYZE_CHAT_HISTORY], 60_000)
      expect(orphan?.payload).toEqual({ importId: accepted.body.importId })
      app.ctx.jobs.start(app.ctx)
      await sleep(600)
      expect((await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })).body.isReady).toBe(false)

      await app.ctx.sql`update jobs set locked_until = now() - interval '1 second' where id = ${orphan!.id}`
      app.ctx.jobs.kick()
      const relations = await relationsReady(app, cookie, id)
      expect(relations.data.relationships).toHaveLength(people.length)
      const [job] = await app.ctx.sql<JobRow[]>`select * from jobs where id = ${orphan!.id}`
      expect(job).toMatchObject({ status: 'SUCCEEDED', attempts: 2 })
    } finally {
      app.ctx.jobs.start(app.ctx)
    }
  })

  test('the same upload sent twice at once starts one analysis; sent again later, another', async () => {
    const cookie = await developer(app)
    const id = await characterOf(app, cookie)
    await app.ctx.jobs.stop()
    let first: any
    try {
      const twice = await Promise.all([0, 1, 2].map(() => upload(app, cookie, id, fromFixtures(...files), 'Mia Chen')))
      expect(twice.map((r) => r.status)).toEqual([202, 202, 202])
      first = twice[0].body
      for (const r of twice) expect(r.body).toEqual(first)
      expect(await importRows(app, id)).toHaveLength(1)
      const jobs = await app.ctx.sql`select 1 from jobs where character_id = ${id} and kind = ${ANALYZE_CHAT_HISTORY}`
      expect(jobs).toHaveLength(1)
      // Only the one import's files are stored.
      const keys = await app.ctx.sql<{ storage_key: string }[]>`
        select f.storage_key from chat_history_files f join chat_history_imports i on i.id = f.import_id where i.character_id = ${id}`
      expect(keys).toHaveLength(files.length)
      // Other files, or another name, are another upload.
      const other = await upload(app, cookie, id, fromFixtures('line-ios-en.txt'), 'Mia Chen')
      expect(other.body.importId).not.toBe(first.importId)
    } finally {
      app.ctx.jobs.start(app.ctx)
    }
    await relationsReady(app, cookie, id)
    const again = await upload(app, cookie, id, fromFixtures(...files), 'Mia Chen')
    expect(again.status).toBe(202)
    expect(again.body.importId).not.toBe(first.importId)
    await relationsReady(app, cookie, id)
    await vi.waitFor(async () => expect((await importRows(app, id)).map((r) => r.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']), POLL)
  })

  test('two uploads queued together are both analysed and merged', async () => {
    const { cookie } = await app.signUp()
    const id = await characterOf(app, cookie)
    await app.ctx.jobs.stop()
    try {
      expect((await upload(app, cookie, id, fromFixtures('line-ios-en.txt'), 'Mia Chen')).status).toBe(202)
      expect((await upload(app, cookie, id, fromFixtures('line-android-zh-TW.txt'), '林志明')).status).toBe(202)
    } finally {
      app.ctx.jobs.start(app.ctx)
    }
    await vi.waitFor(async () => expect((await importRows(app, id)).map((r) => r.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']), POLL)
    const relations = await relationsReady(app, cookie, id)
    expect(relations.data.nodes.filter((n: any) => !n.properties.isSelf).map((n: any) => n.properties.name).sort()).toEqual(['Alex Turner', '陳小美'])
  })

  test('a failed analysis is visible on the import, with its error', async () => {
    const { cookie } = await app.signUp()
    const id = await characterOf(app, cookie)
    await app.ctx.jobs.stop()
    try {
      expect((await upload(app, cookie, id, fromFixtures('line-ios-en.txt'), 'Mia Chen')).status).toBe(202)
      // The stored export disappears before the job gets to it.
      for (const { storage_key } of await app.ctx.sql<{ storage_key: string }[]>`
        select f.storage_key from chat_history_files f join chat_history_imports i on i.id = f.import_id where i.character_id = ${id}`)
        await app.ctx.storage.remove(storage_key)
    } finally {
      app.ctx.jobs.start(app.ctx)
    }
    const failed = await vi.waitFor(async () => {
      const { body } = await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })
      expect(body.import?.status).toBe('FAILED')
      return body
    }, POLL)
    expect(failed).toMatchObject({ isReady: false, import: { error: 'line-ios-en.txt is no longer stored; upload it again' } })
    expect(failed.data).toEqual({ nodes: [], relationships: [] })
    const [listed] = (await app.json('GET', `/chatbots/characters/${id}/chat-history`, { cookie })).body
    expect(listed).toMatchObject({ status: 'FAILED', error: 'line-ios-en.txt is no longer stored; upload it again', finishedAt: expect.any(String) })
  })
})

describe('re-imports merge into the graph', () => {
  const whatsApp = (lines: [string, string][], day = '15/01/2024') =>
    lines.map(([author, text], i) => `${day}, 10:${String(i).padStart(2, '0')} - ${author}: ${text}`).join('\n') + '\n'
  // Mia talks with Alex (as "Alex" here, "Alex Turner" on LINE) and with Sam Lee, on WhatsApp.
  const withAlex = whatsApp([['Mia Chen', 'are you coming tonight?'], ['Alex', 'yes, around 8'], ['Mia Chen', 'great, bring snacks 🍿'], ['Alex', 'deal']])
  const withSam = whatsApp([['Mia Chen', 'hey Sam, lunch tomorrow?'], ['Sam Lee', 'sure, noon?'], ['Mia Chen', 'perfect see you then']], '16/01/2024')
  const group = whatsApp(
    [['Kai Ono', 'who is bringing the tent'], ['Mia Chen', 'I can bring it'], ['Alex Turner', 'I have the stove'], ['Kai Ono', 'nice'], ['Sam Lee', 'I will drive'], ['Mia Chen', 'thanks Sam!'], ['Kai Ono', 'see you all saturday'], ['Sam Lee', 'bye']],
    '20/01/2024',
  )

  const people = (relations: any) => {
    const names = new Map(relations.data.nodes.map((n: any) => [n.id, n.properties.name]))
    return Object.fromEntries(
      relations.data.relationships.map((r: any) => [names.get(r.target), { types: r.types, closeness: r.properties.closeness, confirmed: r.properties.confirmed }]),
    )
  }
  const measured = async (id: string) =>
    (await app.ctx.sql<{ speaking_style: any }[]>`select speaking_style from characters where id = ${id}`)[0].speaking_style.stats['messages measured']

  async function importAndWait(cookie: string, id: string, files: Upload[]) {
    const accepted = await upload(app, cookie, id, files, 'Mia Chen')
    expect(accepted.status).toBe(202)
    await vi.waitFor(async () => {
      const { body } = await app.json('GET', `/chatbots/characters/${id}/relations`, { cookie })
      expect(body.import).toMatchObject({ id: accepted.body.importId, status: 'SUCCEEDED' })
      expect(body.isReady).toBe(true)
    }, POLL)
    return relationsReady(app, cookie, id)
  }

  test('new people are added, unconfirmed ones offered again, confirmed ones kept, aliases merged, the style sample grows', async () => {
    const { cookie } = await app.signUp()
    const id = await characterOf(app, cookie)

    let relations = await importAndWait(cookie, id, fromFixtures('line-ios-en.txt'))
    expect(Object.keys(people(relations))).toEqual(['Alex Turner'])
    const first = await measured(id)

    // Not confirmed: Alex Turner of the first import is offered again, and "Alex" on WhatsApp is the same card.
    relations = await importAndWait(cookie, id, [['alex.txt', withAlex], ['sam.txt', withSam]])
    expect(Object.keys(people(relations)).sort()).toEqual(['Alex Turner', 'Sam Lee'])
    expect(Object.values(people(relations)).every((p: any) => !p.confirmed)).toBe(true)
    const second = await measured(id)
    expect(second).toBe(first + 4)

    // The person confirms Alex as a sibling, very close, and removes Sam.
    const self = relations.data.nodes.find((n: any) => n.properties.isSelf)
    const alex = relations.data.nodes.find((n: any) => n.properties.name === 'Alex Turner')
    const saved = await app.json('PATCH', `/chatbots/characters/${id}/relations`, {
      cookie,
      body: { relationships: [{ source: self.id, target: alex.id, types: ['SIBLINGS'], properties: { closeness: 5 } }] },
    })
    expect(saved.status).toBe(200)

    // A group chat finds Alex again (confirmed: untouched), Sam again (offered again), and Kai (new).
    relations = await importAndWait(cookie, id, [['group.txt', group]])
    expect(people(relations)).toEqual({
      'Alex Turner': { types: ['SIBLINGS'], closeness: 5, confirmed: true },
      'Sam Lee': expect.objectContaining({ confirmed: false }),
      'Kai Ono': expect.objectContaining({ confirmed: false }),
    })
    expect(await measured(id)).toBe(second + 2)

    // The first chat once more: nothing is doubled, nothing confirmed changes.
    relations = await importAndWait(cookie, id, fromFixtures('line-ios-en.txt'))
    expect(people(relations)['Alex Turner']).toEqual({ types: ['SIBLINGS'], closeness: 5, confirmed: true })
    expect(Object.keys(people(relations)).sort()).toEqual(['Alex Turner', 'Kai Ono', 'Sam Lee'])
    expect(await measured(id)).toBe(second + 2)
    // The samples come from every import's messages, not only the last one's.
    const [{ speaking_style: style }] = await app.ctx.sql<{ speaking_style: any }[]>`select speaking_style from characters where id = ${id}`
    expect(style.samples.some((s: string) => ['are you coming tonight?', 'great, bring snacks 🍿', 'hey Sam, lunch tomorrow?', 'perfect see you then', 'I can bring it', 'thanks Sam!'].includes(s))).toBe(true)
  })
})

describe('with a model', () => {
  let modelApp: TestApp
  let model: FakeModelServer
  let modelDown = false
  const SUMMARY = 'Cheerful, quick messages with a snowflake now and then.'

  function scripted(input: ReplyInput) {
    const schema = JSON.stringify(input.schema ?? {})
    if (schema.includes('roleName')) return JSON.stringify({ roleName: 'Warm Friend', roleDescription: 'Keeps in touch.' })
    if (schema.includes('persona')) return JSON.stringify({ persona: 'You are the future Mia.' })
    if (modelDown) return { status: 500, error: 'model is down' }
    if (schema.includes('summary')) return JSON.stringify({ summary: SUMMARY })
    if (schema.includes('ROMANTIC_PARTNER'))
      return JSON.stringify({ people: [{ name: 'Alex Turner', types: ['ROMANTIC_PARTNER', 'ROMANTIC_PARTNER'] }, { name: 'Grace Kim', types: [] }] })
    return defaultReply(input)
  }

  beforeAll(async () => {
    model = startFakeOllama({ reply: scripted })
    // On a shared database the other app's worker (offline model) could claim these jobs; only this app works here.
    await app.ctx.jobs.stop()
    modelApp = await startTestApp({}, { model: createOllamaProvider({ host: model.url, model: 'llama3.2:1b' }) })
  })
  afterAll(async () => {
    await modelApp?.close()
    model?.stop()
    app.ctx.jobs.start(app.ctx)
  })

  const typesByName = (relations: any) => {
    const names = new Map(relations.data.nodes.map((n: any) => [n.id, n.properties.name]))
    return Object.fromEntries(relations.data.relationships.map((r: any) => [names.get(r.target), r.types]))
  }

  test('the model words the summary and proposes types; people it gave no type or left out get the cues', async () => {
    const { cookie } = await modelApp.signUp()
    const id = await characterOf(modelApp, cookie)
    expect((await upload(modelApp, cookie, id, fromFixtures('line-ios-en.txt', 'whatsapp-android-en-12h.txt'), 'Mia Chen')).status).toBe(202)
    const relations = await relationsReady(modelApp, cookie, id)
    expect(typesByName(relations)).toEqual({ 'Alex Turner': ['ROMANTIC_PARTNER'], 'Grace Kim': ['CLOSE_FRIEND'], 'Leo Martínez': ['CLOSE_FRIEND'] })
    const [{ speaking_style: style }] = await modelApp.ctx.sql<{ speaking_style: any }[]>`select speaking_style from characters where id = ${id}`
    expect(style.summary).toBe(SUMMARY)
  })

  test('a failing model leaves the measured summary and the cues; the import still succeeds', async () => {
    const { cookie } = await modelApp.signUp()
    const id = await characterOf(modelApp, cookie)
    modelDown = true
    try {
      expect((await upload(modelApp, cookie, id, fromFixtures('line-ios-en.txt'), 'Mia Chen')).status).toBe(202)
      const relations = await relationsReady(modelApp, cookie, id)
      expect(relations.import.status).toBe('SUCCEEDED')
      expect(typesByName(relations)).toEqual({ 'Alex Turner': ['CLOSE_FRIEND'] })
    } finally {
      modelDown = false
    }
    const [{ speaking_style: style }] = await modelApp.ctx.sql<{ speaking_style: any }[]>`select speaking_style from characters where id = ${id}`
    expect(style.summary).toMatch(/^Writes in English 100%\./)
  })
})
