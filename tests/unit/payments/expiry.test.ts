// expireSubscriptions against a real database (PGlite, or PostgreSQL when DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RENEWAL_GRACE_MS, expireSubscriptions, startSubscriptionExpiry } from '../../../api/payments/expiry'
import { findUserById } from '../../../api/users/users'
import { startTestApp, type TestApp } from '../../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const DAY = 24 * 60 * 60 * 1000
const now = new Date('2031-03-01T00:00:00Z')

async function premiumUser(expiresAt: Date | null, autoRenew: boolean) {
  const { id } = await app.makeUser({})
  await app.ctx.sql`
    update users set subscription_type = 'PREMIUM', subscription_provider = 'ECPAY', subscription_auto_renew = ${autoRenew},
      subscription_expires_at = ${expiresAt}, message_count = 42, message_reset_at = ${new Date(now.getTime() - DAY)}
    where id = ${id}`
  return id
}

describe('expireSubscriptions', () => {
  test('ends a non-renewing Premium at its expiry, with a fresh allowance for the configured period', async () => {
    const ended = await premiumUser(new Date(now.getTime() - 1), false)
    const running = await premiumUser(new Date(now.getTime() + 1), false)
    const ids = await expireSubscriptions(app.ctx.sql, now, 'day')
    expect(ids).toContain(ended)
    expect(ids).not.toContain(running)
    const row = (await findUserById(app.ctx.sql, ended))!
    expect(row).toMatchObject({
      subscription_type: 'FREEMIUM',
      subscription_auto_renew: false,
      // Kept as the record of what ended.
      subscription_provider: 'ECPAY',
      message_count: 0,
      message_reset_at: new Date(now.getTime() + DAY),
    })
    expect((await findUserById(app.ctx.sql, running))!.subscription_type).toBe('PREMIUM')
  })

  test('gives an auto-renewing Premium the renewal grace before ending it', async () => {
    const late = await premiumUser(new Date(now.getTime() - RENEWAL_GRACE_MS + 1000), true)
    const lapsed = await premiumUser(new Date(now.getTime() - RENEWAL_GRACE_MS - 1000), true)
    const ids = await expireSubscriptions(app.ctx.sql, now, 'week')
    expect(ids).not.toContain(late)
    expect(ids).toContain(lapsed)
    expect((await findUserById(app.ctx.sql, lapsed))!.message_reset_at).toEqual(new Date(now.getTime() + 7 * DAY))
  })

  test('leaves Premium without an expiry alone, and is a no-op when run again', async () => {
    const open = await premiumUser(null, false)
    const ended = await premiumUser(new Date(now.getTime() - DAY), false)
    expect(await expireSubscriptions(app.ctx.sql, now, 'week')).toContain(ended)
    const again = await expireSubscriptions(app.ctx.sql, now, 'week')
    expect(again).not.toContain(ended)
    expect(again).not.toContain(open)
    expect((await findUserById(app.ctx.sql, open))!.subscription_type).toBe('PREMIUM')
  })
})

describe('startSubscriptionExpiry', () => {
  test('sweeps at once, and stopping waits for the sweep', async () => {
    const ended = await premiumUser(new Date(Date.now() - DAY), false)
    const logged: string[] = []
    const stop = startSubscriptionExpiry(app.ctx, (s) => logged.push(s), 60_000)
    await stop()
    expect((await findUserById(app.ctx.sql, ended))!.subscription_type).toBe('FREEMIUM')
    expect(logged.some((line) => /^Premium ended for \d+ user/.test(line))).toBe(true)
  })
})
