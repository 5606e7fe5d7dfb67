import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
let admin: string
let regular: string
let developer: string
// Rows this suite adds and the locale docs it edits are put back, for suites sharing the database.
const createdRows: string[] = []
let savedLocales: { id: string; content: unknown }[] = []

beforeAll(async () => {
  app = await startTestApp()
  const a = await app.makeUser({ role: 'ADMIN' })
  admin = await app.signIn(a.email, a.password)
  regular = (await app.signUp()).cookie
  const d = await app.makeUser({ role: 'DEVELOPER' })
  developer = await app.signIn(d.email, d.password)
  savedLocales = (await app.json('GET', '/content-editors/locales', { cookie: admin })).body.locales
})

afterAll(async () => {
  if (!app) return
  if (createdRows.length) await app.ctx.sql`delete from content_rows where id in ${app.ctx.sql(createdRows)}`
  if (savedLocales.length) await app.json('PATCH', '/content-editors/locales', { cookie: admin, body: { locales: savedLocales } })
  await app.close()
})

const base = '/content-editors/editable-contents'
const track = { title: 'Test track', url: 'https://example.com/test.mp3', volume: 30 }

async function createRow(slug: string, body: Record<string, unknown>) {
  const r = await app.json('POST', `${base}/${slug}/contents`, { cookie: admin, body })
  if (r.status === 201) createdRows.push(r.body.id)
  return r
}

describe('who may use the editor', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', base],
    ['GET', `${base}/role-hints`],
    ['POST', `${base}/background-music/contents`, { values: track }],
    ['PATCH', `${base}/background-music/contents/00000000-0000-4000-8000-000000000000`, { values: { volume: 1 } }],
    ['PUT', `${base}/background-music/contents/00000000-0000-4000-8000-000000000000/mappings/screens`, ['chat']],
    ['PATCH', `${base}/00000000-0000-4000-8000-000000000000/locale/ZHTW`, { translate: { text: 'x' } }],
    ['GET', '/content-editors/locales'],
    ['PATCH', '/content-editors/locales', { locales: [{ id: 'ENUS', content: {} }] }],
  ]

  test('anonymous callers get 401, REGULAR and DEVELOPER get 403, on reads and writes', async () => {
    for (const [method, path, body] of calls) {
      expect((await app.json(method, path, { body })).status, `${method} ${path}`).toBe(401)
      expect((await app.json(method, path, { body, cookie: regular })).status, `${method} ${path}`).toBe(403)
      expect((await app.json(method, path, { body, cookie: developer })).status, `${method} ${path}`).toBe(403)
    }
    const rows = await app.ctx.sql`select 1 from content_rows where field_values ->> 'title' = ${track.title}`
    expect(rows).toHaveLength(0)
  })
})

describe('built-in content', () => {
  test('lists the six definitions with their fields', async () => {
    const { status, body } = await app.json('GET', base, { cookie: admin })
    expect(status).toBe(200)
    expect(body.editableContents.map((d: any) => d.slug).sort()).toEqual(
      ['background-music', 'crisis-resources', 'relationship-types', 'role-hints', 'subscription-plans', 'support'].sort(),
    )
    const plans = body.editableContents.find((d: any) => d.slug === 'subscription-plans')
    expect(plans).toMatchObject({ id: 'subscription-plans', hasLocale: true, localeRequiredFields: ['name', 'description'] })
    expect(plans.editableFields.find((f: any) => f.fieldName === 'period')).toEqual({
      fieldName: 'period',
      header: 'Period',
      type: 'select',
      min: null,
      max: null,
      selectOptions: ['day', 'week', 'month', 'year'].map((key) => ({ key, text: key })),
    })
  })

  test('20 role hints, each translated in three languages', async () => {
    const { body } = await app.json('GET', `${base}/role-hints`, { cookie: admin })
    const seeded = body.content.contents.filter((r: any) => r.translate.ZHTW)
    expect(seeded.length).toBeGreaterThanOrEqual(20)
    for (const row of seeded) {
      expect(row.translate).toEqual({ ENUS: true, ZHTW: true, ZHCN: true })
      expect(row.locale.ZHTW.text).not.toBe(row.locale.ENUS.text)
    }
    expect(body.defaultValues).toEqual({ values: { text: '' }, mappings: {} })
  })

  test("the app reads the 16 relationship types in the signed-in user's language", async () => {
    const zh = await app.json('GET', '/content/relationship-types?locale=ZHTW', { cookie: regular })
    expect(zh.status).toBe(200)
    const colleague = zh.body.rows.find((r: any) => r.type === 'COLLEAGUE')
    expect(colleague).toMatchObject({ label: '同事', colour: expect.stringMatching(/^#[0-9A-F]{6}$/) })
    const types = new Set(zh.body.rows.map((r: any) => r.type))
    expect(types.size).toBe(16)
    const cn = await app.json('GET', '/content/relationship-types?locale=ZHCN', { cookie: regular })
    expect(cn.body.rows.find((r: any) => r.type === 'PARENTS').description).toContain('抚养')
    const en = await app.json('GET', '/content/relationship-types', { cookie: regular })
    expect(en.body).toMatchObject({ slug: 'relationship-types', locale: 'ENUS' })
    expect(en.body.rows.find((r: any) => r.type === 'CLOSE_FRIEND').label).toBe('Close friend')
  })

  test('support, plans and crisis lines are public; the rest need a session', async () => {
    const support = await app.json('GET', '/content/support')
    expect(support.status).toBe(200)
    expect(support.res.headers.get('cache-control')).toBe('public, max-age=60')
    expect(support.body.rows[0]).toMatchObject({ email: expect.stringContaining('@'), termsUrl: expect.any(String) })
    const plans = await app.json('GET', '/content/subscription-plans?locale=ZHTW')
    expect(plans.body.rows.map((r: any) => r.planId)).toEqual(expect.arrayContaining(['free', 'subscriptionMonthly', 'subscriptionYearly']))
    expect(plans.body.rows.find((r: any) => r.planId === 'subscriptionYearly')).toMatchObject({ priceUsd: 300, twdAmount: 9200, name: '進階年方案' })
    const crisis = await app.json('GET', '/content/crisis-resources?locale=ZHCN')
    expect(crisis.body.rows.find((r: any) => r.region === 'TW').text).toContain('1925')
    expect((await app.json('GET', '/content/role-hints')).status).toBe(401)
    expect((await app.json('GET', '/content/nope', { cookie: regular })).status).toBe(404)
    expect((await app.json('GET', '/content/support?locale=FR')).status).toBe(400)
  })
})

describe('editing rows', () => {
  test('a new row needs every field; types, limits and keys are checked; nothing half-written', async () => {
    const missing = await createRow('background-music', { values: { title: 'x', url: 'https://example.com/x.mp3' } })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('Volume (%) is required')
    expect((await createRow('background-music', { values: { ...track, title: ' ' } })).body.message).toBe('Title is required')
    expect((await createRow('background-music', { values: { ...track, volume: 101 } })).body.message).toBe('max value 100(change not saved)')
    expect((await createRow('background-music', { values: { ...track, volume: -5 } })).body.message).toBe('min value 0(change not saved)')
    expect((await createRow('background-music', { values: { ...track, volume: '5' } })).body.message).toBe('Volume (%) must be a number')
    expect((await createRow('background-music', { values: { ...track, bpm: 90 } })).body.message).toBe('Unknown field bpm')
    expect((await createRow('background-music', { values: track, mappings: { screens: ['lobby'] } })).status).toBe(400)
    expect((await createRow('background-music', { values: track, locale: { ZHTW: { title: 'x' } } })).body.message).toBe('Background music has no translations')
    expect((await createRow('nope', { values: track })).status).toBe(404)
    const rows = await app.ctx.sql`select 1 from content_rows where field_values ->> 'title' = ${track.title}`
    expect(rows).toHaveLength(0)
  })

  test('create, change fields and mappings; the editor lists newest first and the app sees the change', async () => {
    const created = await createRow('background-music', { values: track, mappings: { screens: ['chat', 'chat'] } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ values: track, mappings: { screens: ['chat'] } })
    const id = created.body.id

    const tooLoud = await app.json('PATCH', `${base}/background-music/contents/${id}`, { cookie: admin, body: { values: { volume: 150 } } })
    expect(tooLoud.status).toBe(400)
    expect(tooLoud.body.message).toBe('max value 100(change not saved)')
    const longUrl = await app.json('PATCH', `${base}/background-music/contents/${id}`, { cookie: admin, body: { values: { url: 'x'.repeat(2001) } } })
    expect(longUrl.body.message).toBe('Track URL must be at most 2000 characters')
    const changed = await app.json('PATCH', `${base}/background-music/contents/${id}`, { cookie: admin, body: { values: { volume: 55 } } })
    expect(changed.body.values).toEqual({ ...track, volume: 55 })

    const mapping = `${base}/background-music/contents/${id}/mappings/screens`
    expect((await app.json('PUT', mapping, { cookie: admin, body: ['chat', 'lobby'] })).status).toBe(400)
    expect((await app.json('PUT', `${base}/background-music/contents/${id}/mappings/volume`, { cookie: admin, body: [] })).status).toBe(400)
    const mapped = await app.json('PUT', mapping, { cookie: admin, body: ['relations', 'onboarding'] })
    expect(mapped.body.mappings).toEqual({ screens: ['relations', 'onboarding'] })
    expect(mapped.body.values.volume).toBe(55)

    const listed = await app.json('GET', `${base}/background-music`, { cookie: admin })
    expect(listed.body.content.contents[0].id).toBe(id)
    const times = listed.body.content.contents.map((r: any) => r.createdAt)
    expect([...times].sort().reverse()).toEqual(times)

    const read = await app.json('GET', '/content/background-music', { cookie: regular })
    expect(read.body.rows.find((r: any) => r.id === id)).toEqual({ id, ...track, volume: 55, screens: ['relations', 'onboarding'] })
  })

  test('a row is only found under its own definition', async () => {
    const created = await createRow('background-music', { values: track })
    const id = created.body.id
    expect((await app.json('PATCH', `${base}/support/contents/${id}`, { cookie: admin, body: { values: { email: 'a@b.co' } } })).status).toBe(404)
    expect((await app.json('PATCH', `${base}/background-music/contents/not-a-uuid`, { cookie: admin, body: { values: { volume: 1 } } })).status).toBe(404)
    expect((await app.json('PUT', `${base}/support/contents/${id}/mappings/screens`, { cookie: admin, body: [] })).status).toBe(400)
  })

  test('translations per row and language; the app falls back to English where a text is empty', async () => {
    const created = await createRow('role-hints', {
      values: { text: 'A test hint for the suite.' },
      locale: { ENUS: { text: 'A test hint for the suite.' } },
    })
    expect(created.body.translate).toEqual({ ENUS: true, ZHTW: false, ZHCN: false })
    const id = created.body.id
    const bad = await app.json('PATCH', `${base}/${id}/locale/ZHTW`, { cookie: admin, body: { translate: { colour: 'x' } } })
    expect(bad.body.message).toBe('colour is not a translated field of role-hints')
    expect((await app.json('PATCH', `${base}/${id}/locale/FRFR`, { cookie: admin, body: { translate: { text: 'x' } } })).status).toBe(400)
    expect((await app.json('PATCH', `${base}/${crypto.randomUUID()}/locale/ZHTW`, { cookie: admin, body: { translate: { text: 'x' } } })).status).toBe(404)

    const zh = await app.json('PATCH', `${base}/${id}/locale/ZHTW`, { cookie: admin, body: { translate: { text: '測試用的提示。' } } })
    expect(zh.status).toBe(200)
    expect(zh.body.locale).toMatchObject({ ENUS: { text: 'A test hint for the suite.' }, ZHTW: { text: '測試用的提示。' } })
    expect(zh.body.translate).toEqual({ ENUS: true, ZHTW: true, ZHCN: false })

    const tw = await app.json('GET', '/content/role-hints?locale=ZHTW', { cookie: regular })
    expect(tw.body.rows.find((r: any) => r.id === id).text).toBe('測試用的提示。')
    const cn = await app.json('GET', '/content/role-hints?locale=ZHCN', { cookie: regular })
    expect(cn.body.rows.find((r: any) => r.id === id).text).toBe('A test hint for the suite.')
  })
})

describe('locale docs', () => {
  test('seeded from locales/*.json for the three languages', async () => {
    const { body } = await app.json('GET', '/content-editors/locales', { cookie: admin })
    expect(body.locales.map((d: any) => d.id)).toEqual(['ENUS', 'ZHTW', 'ZHCN'])
    const en = body.locales[0].content
    expect(en.app.tagline).toBe('Consult Your Best Self')
  })

  test('a saved edit is what the site reads next, and bad docs are refused whole', async () => {
    const before = (await app.json('GET', '/locales/ZHTW')).body
    const edited = { ...before, app: { ...before.app, tagline: `測試標語 ${Date.now()}` } }
    const refused = await app.json('PATCH', '/content-editors/locales', {
      cookie: admin,
      body: { locales: [{ id: 'ZHTW', content: edited }, { id: 'ZHCN', content: [] }] },
    })
    expect(refused.status).toBe(400)
    expect((await app.json('GET', '/locales/ZHTW')).body.app.tagline).toBe(before.app.tagline)
    const twice = await app.json('PATCH', '/content-editors/locales', {
      cookie: admin,
      body: { locales: [{ id: 'ZHTW', content: edited }, { id: 'ZHTW', content: edited }] },
    })
    expect(twice.body.message).toBe('Each locale may be sent once')

    const saved = await app.json('PATCH', '/content-editors/locales', { cookie: admin, body: { locales: [{ id: 'ZHTW', content: edited }] } })
    expect(saved.status).toBe(200)
    expect(saved.body.locales.find((d: any) => d.id === 'ZHTW').content.app.tagline).toBe(edited.app.tagline)
    const read = await app.json('GET', '/locales/ZHTW')
    expect(read.body.app.tagline).toBe(edited.app.tagline)
    expect(read.res.headers.get('cache-control')).toBe('public, max-age=60')
    expect((await app.json('GET', '/locales/ENUS')).body.app.tagline).toBe('Consult Your Best Self')
    expect((await app.json('GET', '/locales/FRFR')).status).toBe(400)
  })

  test('a restart keeps the saved edit and adds only keys the files gained', async () => {
    const edited = { app: { tagline: 'Kept after restart' } }
    await app.json('PATCH', '/content-editors/locales', { cookie: admin, body: { locales: [{ id: 'ENUS', content: edited }] } })
    const { seedContent } = await import('../../api/content/seed')
    await seedContent(app.ctx.sql, app.cfg)
    const after = (await app.json('GET', '/locales/ENUS')).body
    expect(after.app.tagline).toBe('Kept after restart')
    expect(after.app.name).toBe('Ideal Self')
    expect(after.common).toBeTruthy()
  })
})

describe('link fields', () => {
  test('terms, privacy and track URLs take only site paths, http(s) and mailto — on create and on edit', async () => {
    for (const bad of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', '//evil.example', 'java\tscript:alert(1)']) {
      const created = await createRow('support', { values: { email: 'help@example.com', termsUrl: bad, privacyUrl: '/privacy' } })
      expect(created.status, bad).toBe(400)
      expect(created.body.message).toBe('Terms URL must be a path of this site or an http(s) or mailto address')
      const track = await createRow('background-music', { values: { title: 'T', url: bad, volume: 1 } })
      expect(track.status, bad).toBe(400)
    }
    const ok = await createRow('support', { values: { email: 'help@example.com', termsUrl: 'https://example.com/terms', privacyUrl: 'mailto:privacy@example.com' } })
    expect(ok.status).toBe(201)
    const edited = await app.json('PATCH', `${base}/support/contents/${ok.body.id}`, { cookie: admin, body: { values: { privacyUrl: 'javascript:alert(1)' } } })
    expect(edited.status).toBe(400)
    const row = (await app.json('GET', `${base}/support`, { cookie: admin })).body.content.contents.find((r: any) => r.id === ok.body.id)
    expect(row.values.privacyUrl).toBe('mailto:privacy@example.com')
  })
})
