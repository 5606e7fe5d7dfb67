// Shaping the dashboard figures (GET /admin/dashboard) for display.
import type { dashboardFigures } from '../../../../api/admin/dashboard'

export type DashboardFigures = Awaited<ReturnType<typeof dashboardFigures>>
export type DayCount = DashboardFigures['signUpsPerDay'][number]

/** Analytics events of every kind added up per day, for all the window's days. */
export function eventsPerDay(figures: DashboardFigures): DayCount[] {
  const byDay = new Map<string, number>()
  for (const e of figures.eventsPerDay) byDay.set(e.date, (byDay.get(e.date) ?? 0) + e.count)
  return figures.signUpsPerDay.map(({ date }) => ({ date, count: byDay.get(date) ?? 0 }))
}

export const total = (series: DayCount[]) => series.reduce((n, d) => n + d.count, 0)

/** The busiest day (the latest of equals), or null when nothing happened. */
export function peakDay(series: DayCount[]): DayCount | null {
  let best: DayCount | null = null
  for (const d of series) if (d.count > 0 && (!best || d.count >= best.count)) best = d
  return best
}

export const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0)
