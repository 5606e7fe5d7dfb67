// The free allowance, counted in the same transaction that stores the user's message: one UPDATE both checks and
// counts, so concurrent sends queue on the user's row and exactly the messages that were left get through.
// The period reset of limits/messageAllowance.ts happens inside that statement too.
import type { TransactionSql } from 'postgres'
import type { LimitPeriod } from '../config'
import { periodMs } from '../limits/messageAllowance'

export interface Counted {
  /** False for PREMIUM: nothing was counted, so there is nothing to give back. */
  counted: boolean
  limit: number
  count: number
  resetAt: Date
  /** message_reset_at as PostgreSQL wrote it (microseconds included): names the period that was counted in. */
  periodKey: string
}

/** Counts one message; null when a FREEMIUM user has none left this period. */
export async function countMessage(tx: TransactionSql<{}>, userId: string, period: LimitPeriod, now = new Date()): Promise<Counted | null> {
  const periodSeconds = periodMs(period) / 1000
  const [row] = await tx<{ premium: boolean; message_limit: number; message_count: number; message_reset_at: Date; period_key: string }[]>`
    update users set
      message_count = case
        when subscription_type = 'PREMIUM' then message_count
        when ${now}::timestamptz >= message_reset_at then 1
        else message_count + 1 end,
      message_reset_at = case
        when subscription_type <> 'PREMIUM' and ${now}::timestamptz >= message_reset_at
          then message_reset_at + make_interval(secs =>
            (floor(extract(epoch from ${now}::timestamptz - message_reset_at)::float8 / ${periodSeconds}::float8) + 1)
            * ${periodSeconds}::float8)
        else message_reset_at end
    where id = ${userId}
      and (subscription_type = 'PREMIUM'
           or (case when ${now}::timestamptz >= message_reset_at then 0 else message_count end) < message_limit)
    returning subscription_type = 'PREMIUM' as premium, message_limit, message_count, message_reset_at,
              message_reset_at::text as period_key`
  if (!row) return null
  return { counted: !row.premium, limit: row.message_limit, count: row.message_count, resetAt: row.message_reset_at, periodKey: row.period_key }
}

/**
 * Gives a counted message back after the reply failed. Only within the period it was counted in: once the
 * allowance has been renewed, taking one off the new period's count would hand out an extra message.
 */
export async function refundMessage(tx: TransactionSql<{}>, userId: string, counted: Counted): Promise<void> {
  if (!counted.counted) return
  // Sent as text: a timestamptz parameter would pass through a JS Date and lose the microseconds.
  await tx`
    update users set message_count = greatest(message_count - 1, 0)
    where id = ${userId} and message_reset_at = ${counted.periodKey}::text::timestamptz`
}
