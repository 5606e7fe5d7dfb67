// Free-plan allowance arithmetic: pure, so the API, the plan copy and the tests all agree.
import type { LimitPeriod } from '../config'

export const periodMs = (period: LimitPeriod) => (period === 'day' ? 1 : 7) * 24 * 60 * 60 * 1000

export interface Allowance {
  limit: number
  count: number
  resetAt: Date
}

/** The allowance as it stands at `now`: once resetAt has passed the count starts again from 0,
 *  and resetAt moves forward by whole periods so renewals keep their original rhythm. */
export function currentAllowance(stored: Allowance, now: Date, period: LimitPeriod): Allowance {
  if (now.getTime() < stored.resetAt.getTime()) return stored
  const step = periodMs(period)
  const periodsPassed = Math.floor((now.getTime() - stored.resetAt.getTime()) / step) + 1
  return { limit: stored.limit, count: 0, resetAt: new Date(stored.resetAt.getTime() + periodsPassed * step) }
}

export const messagesLeft = (a: Allowance) => Math.max(0, a.limit - a.count)
