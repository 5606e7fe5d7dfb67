// Attempt counters in fixed windows, in PostgreSQL so that limits hold across every API process.
import type { Sql } from '../db/database'

/** How many attempts a key has in its current window (0 when its window has ended). */
export async function attemptCount(sql: Sql, key: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count from attempt_counts where key = ${key} and window_ends_at > now()`
  return row?.count ?? 0
}

/** Counts one attempt for each key (a new window starts when the old one has ended); returns the new counts. */
export async function recordAttempt(sql: Sql, keys: string[], windowMs: number): Promise<number[]> {
  const counts: number[] = []
  for (const key of keys) {
    const [row] = await sql<{ count: number }[]>`
      insert into attempt_counts (key, count, window_ends_at)
      values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
      on conflict (key) do update set
        count = case when attempt_counts.window_ends_at <= now() then 1 else attempt_counts.count + 1 end,
        window_ends_at = case when attempt_counts.window_ends_at <= now() then excluded.window_ends_at
                              else attempt_counts.window_ends_at end
      returning count`
    counts.push(row.count)
  }
  // Ended windows are dropped now and then rather than on a timer, so no process has to own the cleanup.
  if (Math.random() < 0.01) await sql`delete from attempt_counts where window_ends_at < now()`
  return counts
}

export async function clearAttempts(sql: Sql, keys: string[]): Promise<void> {
  await sql`delete from attempt_counts where key in ${sql(keys)}`
}
