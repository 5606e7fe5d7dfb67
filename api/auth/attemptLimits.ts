// Attempt counters in fixed windows, in PostgreSQL so that limits hold across every API process.
import type { Sql } from '../db/database'

/** How many attempts a key has in its current window (0 when its window has ended). */
export async function attemptCount(sql: Sql, key: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count from attempt_counts where key = ${key} and window_ends_at > now()`
  return row?.count ?? 0
}

/**
 * Counts one attempt for each key (a new window starts when the old one has ended) in one statement; returns the
 * new counts in the order of `keys`. Rows are locked in key order, so concurrent calls never deadlock, and each
 * caller sees a count of its own.
 */
export async function recordAttempt(sql: Sql, keys: string[], windowMs: number): Promise<number[]> {
  const sorted = [...new Set(keys)].sort()
  const rows = await sql<{ key: string; count: number }[]>`
    insert into attempt_counts (key, count, window_ends_at)
    select key, 1, now() + ${windowMs} * interval '1 millisecond' from unnest(${sql.array(sorted)}::text[]) as k (key)
    order by key
    on conflict (key) do update set
      count = case when attempt_counts.window_ends_at <= now() then 1 else attempt_counts.count + 1 end,
      window_ends_at = case when attempt_counts.window_ends_at <= now() then excluded.window_ends_at
                            else attempt_counts.window_ends_at end
    returning key, count`
  const counts = new Map(rows.map((r) => [r.key, r.count]))
  // Ended windows are dropped now and then rather than on a timer, so no process has to own the cleanup.
  // Rows another attempt holds are skipped, never waited for: waiting here, against upserts that lock in key
  // order, could deadlock.
  if (Math.random() < 0.01)
    await sql`delete from attempt_counts where key in (
                select key from attempt_counts where window_ends_at < now() order by key for update skip locked)`
  return keys.map((key) => counts.get(key)!)
}

/** Takes back one attempt of each key (one counted ahead that turned out not to count). */
export async function forgetAttempt(sql: Sql, keys: string[]): Promise<void> {
  // Locked in key order, as recordAttempt locks them, so the two never wait on each other in a circle.
  await sql`
    update attempt_counts set count = count - 1
    where key in (select key from attempt_counts where key in ${sql([...new Set(keys)].sort())} order by key for update)
      and count > 0 and window_ends_at > now()`
}

export async function clearAttempts(sql: Sql, keys: string[]): Promise<void> {
  await sql`delete from attempt_counts where key in ${sql(keys)}`
}
