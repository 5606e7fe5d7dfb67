// Pages of the production build when the database cannot be reached: whichever read fails — the session check, the
// saved site texts, a page's own data — the page is the short 503 in the person's language with Retry-After, never a
// 500 and never a redirect to /login as if the person were signed out. The built site is rendered in-process (as
// `npm start` serves it) on an API whose PostgreSQL fails on demand (tests/helpers/faultyDatabase.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { siteDir } from '../../scripts/build'
import { exposeRuntime } from '../../api/siteBridge'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { startFaultyDatabase, type FaultyDatabase, type Refusal } from '../helpers/faultyDatabase'
import { unavailablePage } from '../../site/src/lib/unavailable'
import type { Lang } from '../../site/src/lib/i18n'

const entry = join(siteDir, 'dist', 'server', 'entry.mjs')
const url = process.env.DATABASE_URL
const why = !url ? 'DATABASE_URL is not set' : !existsSync(entry) ? 'the site is not built (npm run build)' : null
if (why) console.log(`Pages without the database: skipped, ${why}`)

const SESSION_READ = 'from sessions s join users u'
const LOCALE_READ = 'from locale_docs'

describe.skipIf(Boolean(why))('pages when the database cannot be reached', () => {
  let db: FaultyDatabase
  let app: TestApp
  let astro: { render(request: Request, opts?: { clientAddress?: string }): Promise<Response> }
  let person: string
  let admin: string

  beforeAll(async () => {
    db = await startFaultyDatabase(url!)
    app = await startTestApp({ DATABASE_URL: db.url })
    // Only the requests of this file touch the database.
    await app.ctx.jobs.stop()
    await app.ctx.replies.stop()
    person = (await app.signUp()).cookie
    const made = await app.makeUser({ role: 'ADMIN' })
    admin = await app.signIn(made.email, made.password)
    exposeRuntime(app)
    ;({ app: astro } = await import(entry))
  })
  afterAll(async () => {
    await app?.close()
    await db?.close()
  })

  const render = (path: string, lang: Lang, cookie?: string) =>
    astro.render(new Request(`http://localhost${path}`, { headers: { cookie: [cookie, `lang=${lang}`].filter(Boolean).join('; ') } }), {
      clientAddress: '127.0.0.1',
    })

  /** Each page, as the person or admin it belongs to, in a language of its own. */
  const pages: [string, Lang, () => string | undefined][] = [
    ['/login', 'ZHTW', () => undefined],
    ['/app/select-character', 'ZHCN', () => person],
    ['/app/settings', 'ENUS', () => person],
    ['/admin/app/users', 'ZHTW', () => admin],
    ['/admin/app/dashboard', 'ZHCN', () => admin],
  ]

  async function expectUnavailable(what: string, list = pages) {
    for (const [path, lang, cookie] of list) {
      // A fresh bridge: its short cache of the site texts would otherwise spare the locale read.
      exposeRuntime(app)
      const res = await render(path, lang, cookie())
      const label = `${what}: ${path}`
      expect(res.status, `${label} (location ${res.headers.get('location')})`).toBe(503)
      expect(res.headers.get('location'), label).toBeNull()
      expect(res.headers.get('retry-after'), label).toBe('5')
      expect(await res.text(), label).toBe(await unavailablePage(lang).text())
    }
  }

  test('a server that refuses new connections (shutting down, starting up, full, not accepting): every page is a 503', async () => {
    const refusals: Refusal[] = [
      { code: '57P03', message: 'the database system is shutting down' },
      { code: '57P03', message: 'the database system is starting up' },
      { code: '53300', message: 'sorry, too many clients already' },
      { code: '55000', message: 'database "idealself" is not currently accepting connections' },
    ]
    for (const refusal of refusals) {
      db.refuse(refusal)
      await expectUnavailable(`${refusal.code} ${refusal.message}`)
    }
    expect(db.counts().refused).toBeGreaterThan(refusals.length * pages.length)
    db.refuse(null)
  })

  test('the session check lost: a 503, not the sign-in page', async () => {
    db.cut((statement) => statement.includes(SESSION_READ))
    await expectUnavailable('session check', pages.slice(1))
    db.cut(null)
  })

  test('the saved site texts lost: a 503, not the page in the bundled texts', async () => {
    db.cut((statement) => statement.includes(LOCALE_READ))
    await expectUnavailable('saved texts')
    db.cut(null)
  })

  test('a page’s own data lost (the session and the texts read): a 503, not a page without its data', async () => {
    // postgres.js's own read of the type catalogue, as a connection opens, is spared: a connection lost there is opened
    // again rather than failed, so cutting it every time would leave the page waiting instead of failing.
    const spared = [SESSION_READ, LOCALE_READ, 'from pg_catalog.pg_type']
    db.cut((statement) => !spared.some((text) => statement.includes(text)))
    await expectUnavailable('page data')
    db.cut(null)
  })

  test('back again, every page answers as usual (nothing of the outage was kept)', async () => {
    for (const [path, lang, cookie] of pages) {
      const res = await render(path, lang, cookie())
      // The new person has no character yet: character selection sends them to the onboarding story.
      expect([200, 302], path).toContain(res.status)
      if (res.status === 302) expect(res.headers.get('location'), path).toBe('/app/onboarding')
    }
  })

  test('the pool ended: every page is a 503', async () => {
    await app.ctx.sql.end({ timeout: 1 })
    await expectUnavailable('pool ended')
  })
})
