import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'
import { dailySeries, lastDays } from '../../api/admin/dashboard'

let app: TestApp
let admin: string

beforeAll(async () => {
  app = await startTestApp()
  const a = await app.makeUser({ role: 'ADMIN' })
  admin = await app.signIn(a.email, a.password)
})
afterAll(() => app?.close())

const dashboard = async (cookie = admin) => (await app.json('GET', '/admin/dashboard', { cookie })).body
const today = (series: { date: string; count: number }[]) => series[series.length - 1].count

describe('who sees the dashboard', () => {
  test('ADMIN and DEVELOPER; REGULAR gets 403 and anonymous 401', async () => {
    const dev = await app.makeUser({ role: 'DEVELOPER' })
    const devCookie = await app.signIn(dev.email, dev.password)
    expect((await app.json('GET', '/admin/dashboard', { cookie: devCookie })).status).toBe(200)
    expect((await app.json('GET', '/admin/dashboard', { cookie: (await app.signUp()).cookie })).status).toBe(403)
    expect((await app.json('GET', '/admin/dashboard')).status).toBe(401)
  })
})

describe('figures', () => {
  test('30 days ending today in the app time zone, zero-filled', async () => {
    const d = await dashboard()
    expect(d.timeZone).toBe(app.cfg.timeZone)
    const todayThere = new Intl.DateTimeFormat('en-CA', { timeZone: app.cfg.timeZone }).format(new Date())
    for (const series of [d.signUpsPerDay, d.activeUsersPerDay, d.messagesPerDay]) {
      expect(series).toHaveLength(30)
      expect(series[29].date).toBe(todayThere)
    }
  })

  test('follow new users, plans, onboarding, activity, messages and events, and never show message text', async () => {
    const before = await dashboard()
    const event = `dashboard_test_${Date.now()}`
    const secret = `private words ${Date.now()}`
    const ids = []
    for (const [i, plan] of ['FREEMIUM', 'PREMIUM', 'FREEMIUM'].entries()) {
      const [u] = await app.ctx.sql<{ id: string }[]>`
        insert into users (email, name, subscription_type, onboarding_completed, onboarding_current_step)
        values (${uniqueEmail('dash')}, 'Dash', ${plan}, ${i === 0}, ${i === 1 ? 'name-confirmation' : null}) returning id`
      ids.push(u.id)
    }
    await app.makeUser({ role: 'DEVELOPER' })
    await app.ctx.sql`insert into analytics_events (user_id, event) values (${ids[0]}, ${event}), (${ids[0]}, ${event}), (null, ${event})`
    const [conversation] = await app.ctx.sql<{ id: string }[]>`
      insert into conversations (user_id, name) values (${ids[1]}, 'Ideal Self') returning id`
    await app.ctx.sql`insert into messages (conversation_id, user_id, role, text)
      values (${conversation.id}, ${ids[1]}, 'USER', ${secret}), (${conversation.id}, ${ids[1]}, 'ASSISTANT', ${secret})`

    const res = await app.json('GET', '/admin/dashboard', { cookie: admin })
    const after = res.body
    expect(JSON.stringify(after)).not.toContain(secret)
    expect(after.users.total - before.users.total).toBe(4)
    expect(after.users.byRole.REGULAR - before.users.byRole.REGULAR).toBe(3)
    expect(after.users.byRole.DEVELOPER - before.users.byRole.DEVELOPER).toBe(1)
    expect(after.users.byPlan.PREMIUM - before.users.byPlan.PREMIUM).toBe(1)
    expect(after.users.byPlan.FREEMIUM - before.users.byPlan.FREEMIUM).toBe(3)
    expect(today(after.signUpsPerDay) - today(before.signUpsPerDay)).toBe(4)
    expect(after.onboarding.completed - before.onboarding.completed).toBe(1)
    expect(after.onboarding.inProgress - before.onboarding.inProgress).toBe(1)
    expect(after.onboarding.notStarted - before.onboarding.notStarted).toBe(2)
    expect(after.onboarding.byStep['name-confirmation'] - (before.onboarding.byStep['name-confirmation'] ?? 0)).toBe(1)
    // The event writer and the message writer were active today; an anonymous event adds nobody.
    expect(today(after.activeUsersPerDay) - today(before.activeUsersPerDay)).toBe(2)
    expect(today(after.messagesPerDay) - today(before.messagesPerDay)).toBe(2)
    expect(after.eventTotals[event]).toBe(3)
    expect(after.eventsPerDay.filter((e: any) => e.event === event)).toEqual([{ date: after.signUpsPerDay[29].date, event, count: 3 }])
    expect(after.payments).toMatchObject({ orders: expect.any(Number), revenueTwd: expect.any(Number) })
    expect(after.chatHistoryImports).toMatchObject({ total: expect.any(Number) })
  })

  test('a new sign-in counts its user as active today', async () => {
    const before = today((await dashboard()).activeUsersPerDay)
    await app.signUp()
    expect(today((await dashboard()).activeUsersPerDay)).toBe(before + 1)
  })
})

describe('day arithmetic', () => {
  test('days are calendar dates of the time zone, across month ends', () => {
    // 2024-03-01 00:30 in Taipei is still 29 February in UTC.
    const now = new Date('2024-02-29T16:30:00Z')
    expect(lastDays(now, 3, 'Asia/Taipei')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01'])
    expect(lastDays(now, 2, 'UTC')).toEqual(['2024-02-28', '2024-02-29'])
    expect(dailySeries(['2024-02-29', '2024-03-01'], [{ day: '2024-03-01', count: 4 }, { day: '2024-01-01', count: 9 }])).toEqual([
      { date: '2024-02-29', count: 0 },
      { date: '2024-03-01', count: 4 },
    ])
  })
})
