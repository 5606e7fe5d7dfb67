// Durable jobs over the `jobs` table (DESIGN §7). A claim is one UPDATE that takes a row with FOR UPDATE SKIP LOCKED
// and leases it for a while; every later write names the claim by (id, attempts), so a worker whose lease ran out
// and was claimed by another can no longer change the job. Nothing here holds a transaction open between
// statements, which keeps PGlite's single connection free while a handler waits on a model.
import type { JSONValue, TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { inBatches } from './periodic'

type Db = Sql | TransactionSql<{}>

export type JobStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED'

export interface JobRow {
  id: string
  kind: string
  user_id: string
  character_id: string | null
  payload: Record<string, unknown>
  status: JobStatus
  attempts: number
  max_attempts: number
  last_error: string | null
  run_after: Date
  locked_until: Date | null
  created_at: Date
  updated_at: Date
}

export interface NewJob {
  kind: string
  userId: string
  characterId?: string | null
  payload?: { [key: string]: JSONValue }
  maxAttempts?: number
}

/** Thrown by a handler for a job that cannot succeed however often it is tried: it fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PermanentJobError'
  }
}

const lease = (ms: number) => `${Math.max(1, Math.round(ms))} milliseconds`
// Long stack traces and model output stay in the log; the row keeps what a developer needs to see.
const ERROR_MAX = 2000

/**
 * Adds a job; with a transaction it appears only when that commits, together with the rows it works on. The
 * caller wakes this process's worker afterwards (ctx.jobs.kick()); other processes find it by polling.
 */
export async function enqueue(sql: Db, job: NewJob): Promise<JobRow> {
  const [row] = await sql<JobRow[]>`
    insert into jobs (kind, user_id, character_id, payload, max_attempts)
    values (${job.kind}, ${job.userId}, ${job.characterId ?? null}, ${sql.json(job.payload ?? {})},
            ${job.maxAttempts ?? 3})
    returning *`
  return row
}

/**
 * Ends jobs whose worker died (lease expired) on their last attempt: running them again would exceed max_attempts,
 * and a job that brings its process down every time must not do so forever.
 */
export async function failAbandonedJobs(sql: Db, kinds: string[]): Promise<number> {
  const rows = await sql`
    update jobs set status = 'FAILED', locked_until = null, updated_at = now(),
      last_error = 'The worker running the last attempt stopped before it finished'
    where status = 'RUNNING' and locked_until < now() and attempts >= max_attempts and kind in ${sql(kinds)}
    returning id`
  return rows.length
}

/**
 * Takes the next due job of one of `kinds`: a pending one whose time has come, or a running one whose worker let
 * its lease expire (a killed process). SKIP LOCKED makes concurrent claims, in any number of processes, take
 * different rows.
 */
export async function claimJob(sql: Db, kinds: string[], leaseMs: number): Promise<JobRow | null> {
  const [row] = await sql<JobRow[]>`
    update jobs set status = 'RUNNING', attempts = attempts + 1, locked_until = now() + ${lease(leaseMs)}::interval,
      updated_at = now()
    where id = (
      select id from jobs
      where kind in ${sql(kinds)}
        and (status = 'PENDING' and run_after <= now()
             or status = 'RUNNING' and locked_until < now() and attempts < max_attempts)
      order by run_after, created_at
      for update skip locked
      limit 1
    )
    returning *`
  return row ?? null
}

/** Extends the lease of a claim that is still ours; false when it is not (expired and claimed again, or deleted). */
export async function renewLease(sql: Db, job: JobRow, leaseMs: number): Promise<boolean> {
  const rows = await sql`
    update jobs set locked_until = now() + ${lease(leaseMs)}::interval, updated_at = now()
    where id = ${job.id} and status = 'RUNNING' and attempts = ${job.attempts}
    returning id`
  return rows.length > 0
}

/**
 * Inside a handler's final transaction: locks the job row and tells whether the claim is still ours. While the
 * lock is held no other worker can claim the job, so the handler's writes and the claim agree.
 */
export async function holdsClaim(tx: TransactionSql<{}>, job: JobRow): Promise<boolean> {
  const rows = await tx`
    select 1 from jobs where id = ${job.id} and status = 'RUNNING' and attempts = ${job.attempts} for update`
  return rows.length > 0
}

export async function completeJob(sql: Db, job: JobRow): Promise<boolean> {
  const rows = await sql`
    update jobs set status = 'SUCCEEDED', locked_until = null, last_error = null, updated_at = now()
    where id = ${job.id} and status = 'RUNNING' and attempts = ${job.attempts}
    returning id`
  return rows.length > 0
}

/**
 * Records a failed attempt: PENDING again after `retryDelayMs`, or FAILED when the attempts are used up or the
 * error is permanent (retryDelayMs null). The error stays visible either way.
 */
export async function failJob(sql: Db, job: JobRow, error: string, retryDelayMs: number | null): Promise<JobStatus | null> {
  const [row] = await sql<{ status: JobStatus }[]>`
    update jobs set
      status = case when ${retryDelayMs === null} or attempts >= max_attempts then 'FAILED' else 'PENDING' end,
      run_after = now() + ${lease(retryDelayMs ?? 0)}::interval,
      locked_until = null, last_error = ${error.slice(0, ERROR_MAX)}, updated_at = now()
    where id = ${job.id} and status = 'RUNNING' and attempts = ${job.attempts}
    returning status`
  return row?.status ?? null
}

/** Hands a claim back untried (the worker is shutting down): due at once, and the attempt is not counted. */
export async function releaseJob(sql: Db, job: JobRow): Promise<void> {
  await sql`
    update jobs set status = 'PENDING', attempts = attempts - 1, run_after = now(), locked_until = null, updated_at = now()
    where id = ${job.id} and status = 'RUNNING' and attempts = ${job.attempts}`
}

/**
 * Forgets the jobs of `kinds` that finished (succeeded or failed for good) more than `keptMs` ago: for kinds whose
 * record has no use once the work is done and a failure had its time to be looked into. Rows are claimed with
 * `skip locked`, so sweeps on several instances at once each forget a job once. Returns how many were forgotten.
 */
export async function dropFinishedJobs(sql: Sql, kinds: string[], keptMs: number): Promise<number> {
  return inBatches(1000, async (limit) => {
    const rows = await sql`
      delete from jobs where id in (
        select id from jobs
        where status in ('SUCCEEDED', 'FAILED') and kind in ${sql(kinds)} and updated_at < now() - ${keptMs} * interval '1 millisecond'
        limit ${limit} for update skip locked)
      returning id`
    return rows.length
  })
}
