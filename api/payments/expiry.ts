// Premium that has run out without a renewal: the user goes back to Free with a fresh allowance.
import type { Sql } from '../db/database'
import type { LimitPeriod } from '../config'
import { periodMs } from '../limits/messageAllowance'

/**
 * How long an auto-renewing subscription outlives its expiry. ECPay charges a schedule in its own
 * batch, which can land hours after the moment we computed (and days after a month-end date), and
 * its notice follows; the user should not drop to Free in between.
 */
export const RENEWAL_GRACE_MS = 3 * 24 * 60 * 60 * 1000
const SWEEP_EVERY_MS = 5 * 60 * 1000

/**
 * Ends every Premium whose expiry has passed (plus the grace when it still renews). Provider and
 * expiry stay on the row as a record of what ended. One statement, so it is safe to run from every
 * API process at once, and a renewal that holds the user row lock wins before the row is judged.
 * Returns the ids of the users sent back to Free.
 */
export async function expireSubscriptions(
  sql: Sql,
  now: Date,
  period: LimitPeriod,
  renewalGraceMs = RENEWAL_GRACE_MS,
): Promise<string[]> {
  const renewalCutoff = new Date(now.getTime() - renewalGraceMs)
  const rows = await sql<{ id: string }[]>`
    update users set subscription_type = 'FREEMIUM', subscription_auto_renew = false,
      message_count = 0, message_reset_at = ${new Date(now.getTime() + periodMs(period))}, updated_at = now()
    where subscription_type = 'PREMIUM' and subscription_expires_at is not null
      and (subscription_expires_at <= ${now} and not subscription_auto_renew
           or subscription_expires_at <= ${renewalCutoff})
    returning id`
  return rows.map((r) => r.id)
}

/**
 * Runs expireSubscriptions now and every few minutes. The returned function stops the timer and
 * waits for a sweep in progress, so the database can be closed right after it.
 */
export function startSubscriptionExpiry(
  ctx: { sql: Sql; cfg: { freeLimitPeriod: LimitPeriod } },
  log: (s: string) => void = console.log,
  everyMs = SWEEP_EVERY_MS,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve()
  const sweep = () => {
    running = running.then(async () => {
      try {
        const ended = await expireSubscriptions(ctx.sql, new Date(), ctx.cfg.freeLimitPeriod)
        if (ended.length) log(`Premium ended for ${ended.length} user(s) whose subscription expired`)
      } catch (e) {
        console.error('Subscription expiry sweep failed', e)
      }
    })
  }
  sweep()
  const timer = setInterval(sweep, everyMs)
  // The sweep never keeps a process alive on its own.
  timer.unref?.()
  return async () => {
    clearInterval(timer)
    await running
  }
}
