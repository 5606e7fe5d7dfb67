// A session check whose read the database connection was lost under is tried again, or answered 503 — never taken for
// "not signed in" (a 401 that would sign the person out).
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import postgres from 'postgres'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { startFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase'
import { sessionIdFromToken, sessionUser } from '../../api/auth/sessions'
import { isConnectionError } from '../../api/db/connectionErrors'

const url = process.env.DATABASE_URL
const SESSION_READ = 'from sessions s join users u'
const BUSY = { statusCode: 503, error: 'ServiceUnavailable', message: 'Server Busy, Please try again later' }

describe.skipIf(!url)('a session check the connection was lost under', () => {
  let db: FaultyDatabase
  let app: TestApp
  beforeAll(async () => {
    db = await startFaultyDatabase(url!)
    app = await startTestApp({ DATABASE_URL: db.url })
  })
  afterAll(async () => {
    await app?.close()
    await db?.close()
  })

  test('lost once, the read is tried again (200); lost every time, 503 with Retry-After for reads and writes; never 401', async () => {
    const { cookie, user } = await app.signUp()
    let calls = 0
    db.cut((statement) => statement.includes(SESSION_READ) && ++calls === 1)
    const again = await app.json('GET', '/self', { cookie })
    expect(db.counts().cut).toBe(1)
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(user.id)

    db.cut((statement) => statement.includes(SESSION_READ))
    for (const [method, path, body] of [['GET', '/self'], ['GET', '/chatbots/characters'], ['POST', '/chatbots/conversations', { name: 'x' }]] as const) {
      const res = await app.json(method, path, { cookie, body })
      expect(res.status, `${method} ${path}`).toBe(503)
      expect(res.res.headers.get('retry-after')).toBe('1')
      expect(res.body).toEqual(BUSY)
    }
    expect(db.counts().cut).toBeGreaterThanOrEqual(5)

    db.cut(null)
    expect((await app.call('GET', '/self', { cookie })).status).toBe(200)
  })

  test('a result left with holes by a result lost before it on the same connection is a lost connection, not "no session"', async () => {
    const { cookie, user } = await app.signUp()
    const sessionId = await sessionIdFromToken(app.ctx.sessionKeys, /session=([^;]+)/.exec(cookie)![1])
    const one = postgres(url!, { max: 1, onnotice: () => {} })
    try {
      // Three rows arrive, then the fourth fails: postgres.js keeps counting from three on this connection.
      await one`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`.catch(() => {})
      const error = await sessionUser(one, sessionId!).then(() => null, (e: unknown) => e)
      expect(isConnectionError(error)).toBe(true)
      // The connection counts from nought again after that result, so the read tried again is whole.
      expect((await sessionUser(one, sessionId!))?.id).toBe(user.id)
    } finally {
      await one.end()
    }
  })
})
