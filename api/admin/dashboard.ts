// The admin dashboard's figures: counts only, never what anyone wrote. Tables of features that may not be
// installed yet (chat-history imports, payment orders) count as zero until they exist.
import type { Sql } from '../db/database'
import { ROLES } from '../users/users'

export const DASHBOARD_DAYS = 30

export interface DayCount {
  date: string
  count: number
}

/** The last `n` calendar dates (YYYY-MM-DD) in `timeZone`, oldest first, ending today. */
export function lastDays(now: Date, n: number, timeZone: string): string[] {
  // en-CA formats a date as YYYY-MM-DD.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
  const midnight = Date.parse(`${today}T00:00:00Z`)
  return Array.from({ length: n }, (_, i) => new Date(midnight - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10))
}

/** One entry per day, zero where nothing happened; counts outside the days are dropped. */
export function dailySeries(days: string[], counts: { day: string; count: number }[]): DayCount[] {
  const byDay = new Map(counts.map((c) => [c.day, c.count]))
  return days.map((date) => ({ date, count: byDay.get(date) ?? 0 }))
}

const tableExists = async (sql: Sql, table: string) =>
  (await sql<{ found: boolean }[]>`select to_regclass(${table}) is not null as found`)[0].found

export async function dashboardFigures(sql: Sql, opts: { timeZone: string; now?: Date }) {
  const now = opts.now ?? new Date()
  const tz = opts.timeZone
  const days = lastDays(now, DASHBOARD_DAYS, tz)
  // A day more than the window, so the oldest local day is whole in any time zone.
  const since = new Date(now.getTime() - (DASHBOARD_DAYS + 1) * 86_400_000)
  const day = () => sql`to_char(created_at at time zone ${tz}, 'YYYY-MM-DD')`

  const [hasImports, hasOrders] = await Promise.all([tableExists(sql, 'chat_history_imports'), tableExists(sql, 'payment_orders')])

  const [[users], roles, plans, signUps, onboardingSteps, events, messageDays, active] = await Promise.all([
    sql<{ total: number; suspended: number; completed: number; in_progress: number }[]>`
      select count(*)::int as total,
             count(*) filter (where is_suspended)::int as suspended,
             count(*) filter (where onboarding_completed)::int as completed,
             count(*) filter (where not onboarding_completed and onboarding_current_step is not null)::int as in_progress
      from users`,
    sql<{ role: string; count: number }[]>`select role, count(*)::int as count from users group by role`,
    sql<{ plan: string; count: number }[]>`select subscription_type as plan, count(*)::int as count from users group by 1`,
    sql<{ day: string; count: number }[]>`
      select ${day()} as day, count(*)::int as count from users where created_at >= ${since} group by 1`,
    sql<{ step: string; count: number }[]>`
      select onboarding_current_step as step, count(*)::int as count from users
      where not onboarding_completed and onboarding_current_step is not null group by 1`,
    sql<{ day: string; event: string; count: number }[]>`
      select ${day()} as day, event, count(*)::int as count from analytics_events
      where created_at >= ${since} group by 1, 2 order by 1, 2`,
    sql<{ day: string; count: number }[]>`
      select ${day()} as day, count(*)::int as count from messages where created_at >= ${since} group by 1`,
    // Active: signed in, logged an app event, or sent a message that day.
    sql<{ day: string; count: number }[]>`
      select day, count(distinct user_id)::int as count from (
        select ${day()} as day, user_id from sessions where created_at >= ${since}
        union all
        select ${day()} as day, user_id from analytics_events where created_at >= ${since} and user_id is not null
        union all
        select ${day()} as day, user_id from messages where created_at >= ${since} and role = 'USER'
      ) activity group by day`,
  ])

  const [imports] = hasImports
    ? await sql<{ total: number; last30Days: number }[]>`
        select count(*)::int as total, count(*) filter (where created_at >= ${since})::int as "last30Days"
        from chat_history_imports`
    : [{ total: 0, last30Days: 0 }]
  const orders = hasOrders
    ? await sql<{ status: string; count: number; recent: number; revenue_twd: number }[]>`
        select status, count(*)::int as count, count(*) filter (where created_at >= ${since})::int as recent,
               coalesce(sum(amount_twd * periods_paid), 0)::float8 as revenue_twd
        from payment_orders group by status`
    : []

  const eventTotals: Record<string, number> = {}
  for (const e of events) if (e.day >= days[0]) eventTotals[e.event] = (eventTotals[e.event] ?? 0) + e.count

  return {
    generatedAt: now.toISOString(),
    timeZone: tz,
    days: DASHBOARD_DAYS,
    /** Which optional feature tables exist yet; their figures are zero until they do. */
    sources: { chatHistoryImports: hasImports, payments: hasOrders },
    users: {
      total: users.total,
      suspended: users.suspended,
      byRole: Object.fromEntries(ROLES.map((r) => [r, roles.find((x) => x.role === r)?.count ?? 0])),
      byPlan: Object.fromEntries(['FREEMIUM', 'PREMIUM'].map((p) => [p, plans.find((x) => x.plan === p)?.count ?? 0])),
    },
    signUpsPerDay: dailySeries(days, signUps),
    activeUsersPerDay: dailySeries(days, active),
    messagesPerDay: dailySeries(days, messageDays),
    onboarding: {
      completed: users.completed,
      inProgress: users.in_progress,
      notStarted: users.total - users.completed - users.in_progress,
      byStep: Object.fromEntries(onboardingSteps.map((s) => [s.step, s.count])),
    },
    chatHistoryImports: imports,
    payments: {
      orders: orders.reduce((n, o) => n + o.count, 0),
      ordersLast30Days: orders.reduce((n, o) => n + o.recent, 0),
      byStatus: Object.fromEntries(orders.map((o) => [o.status, o.count])),
      /** Every charge so far: each order's amount times the periods it has paid for. */
      revenueTwd: orders.reduce((n, o) => n + o.revenue_twd, 0),
    },
    eventsPerDay: events.filter((e) => e.day >= days[0]).map((e) => ({ date: e.day, event: e.event, count: e.count })),
    eventTotals,
  }
}
