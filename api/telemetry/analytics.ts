// Product analytics: PostHog when a key is configured, else the analytics_events table the dashboard charts.
import type { Sql } from '../db/database'

export interface AnalyticsSink {
  record(event: string, props: Record<string, unknown>, userId: string | null): Promise<void>
}

export function analyticsSink(opts: { sql: Sql; posthogKey: string | null; posthogHost: string }): AnalyticsSink {
  if (opts.posthogKey) {
    const url = `${opts.posthogHost.replace(/\/$/, '')}/capture/`
    return {
      async record(event, props, userId) {
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key: opts.posthogKey, event, distinct_id: userId ?? 'anonymous', properties: props }),
          signal: AbortSignal.timeout(5000),
        }).catch(() => {})
      },
    }
  }
  return {
    async record(event, props, userId) {
      await opts.sql`insert into analytics_events (user_id, event, props) values (${userId}, ${event}, ${opts.sql.json(props as never)})`
    },
  }
}
