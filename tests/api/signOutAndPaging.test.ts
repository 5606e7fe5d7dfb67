import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const signedIn = async (cookie: string) => (await app.call('GET', '/self', { cookie })).status === 200

describe('sign-out', () => {
  test('a link on another site cannot sign a person out', async () => {
    const { cookie } = await app.signUp()
    for (const site of ['cross-site', 'same-site']) {
      const res = await app.json('GET', '/auth/sign-out', { cookie, headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' } })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Sign-out from another site is refused' })
      expect(res.res.headers.getSetCookie()).toEqual([])
      expect(await signedIn(cookie)).toBe(true)
    }
  })

  test('the app itself (same-origin), a typed address (none) and clients that send no marker sign out with GET', async () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const { cookie } = await app.signUp()
      const res = await app.call('GET', '/auth/sign-out', { cookie, headers })
      expect(res.status).toBe(200)
      expect(res.headers.getSetCookie().join()).toMatch(/Max-Age=0/i)
      expect(await signedIn(cookie)).toBe(false)
    }
  })

  test('POST signs out too; from another origin it is refused', async () => {
    const { cookie } = await app.signUp()
    const cross = await app.call('POST', '/auth/sign-out', { cookie, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })
    expect(cross.status).toBe(403)
    expect(await signedIn(cookie)).toBe(true)
    const res = await app.call('POST', '/auth/sign-out', { cookie, headers: { 'sec-fetch-site': 'same-origin' } })
    expect(res.status).toBe(200)
    expect(await signedIn(cookie)).toBe(false)
  })
})

describe('conversation list paging', () => {
  test('without parameters: the whole list as before (up to the default page), newest first', async () => {
    const { cookie } = await app.signUp()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await app.json('POST', '/chatbots/conversations', { cookie, body: { name: `c${i}` } })).body.id)
    const all = await app.json('GET', '/chatbots/conversations', { cookie })
    expect(all.status).toBe(200)
    expect(all.body.map((c: any) => c.id)).toEqual([...ids].reverse())
    expect(all.res.headers.get('x-next-offset')).toBeNull()
  })

  test('limit and offset page through, with x-next-offset while more follow', async () => {
    const { cookie } = await app.signUp()
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push((await app.json('POST', '/chatbots/conversations', { cookie, body: { name: `c${i}` } })).body.id)
    const newest = [...ids].reverse()
    const seen: string[] = []
    let offset: string | null = '0'
    while (offset !== null) {
      const page = await app.json('GET', `/chatbots/conversations?limit=3&offset=${offset}`, { cookie })
      expect(page.body.length).toBeLessThanOrEqual(3)
      seen.push(...page.body.map((c: any) => c.id))
      offset = page.res.headers.get('x-next-offset')
    }
    expect(seen).toEqual(newest)
  })

  test('a list longer than the default page is bounded', async () => {
    const { cookie, user } = await app.signUp()
    await app.ctx.sql`insert into conversations (user_id, name) select ${user.id}, 'c' || g from generate_series(1, 130) g`
    const first = await app.json('GET', '/chatbots/conversations', { cookie })
    expect(first.body).toHaveLength(100)
    expect(first.res.headers.get('x-next-offset')).toBe('100')
    expect((await app.json('GET', '/chatbots/conversations?offset=100', { cookie })).body).toHaveLength(30)
  })

  test('bad paging values are a 400', async () => {
    const { cookie } = await app.signUp()
    for (const q of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'offset=-1', 'offset=1.5', 'limit=1e400'])
      expect((await app.json('GET', `/chatbots/conversations?${q}`, { cookie })).status, q).toBe(400)
  })
})
