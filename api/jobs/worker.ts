// The loop that runs durable jobs in this process: one job at a time, claimed from the shared table, with its lease
// renewed while the handler works. Polling finds jobs other processes added; kick() wakes it at once for jobs
// this process added. Several workers, in one process or many, never run the same claim (see queue.ts).
import type { AppContext } from '../context'
import type { Sql } from '../db/database'
import {
  PermanentJobError,
  claimJob,
  completeJob,
  failAbandonedJobs,
  failJob,
  releaseJob,
  renewLease,
  type JobRow,
} from './queue'

export interface JobRun {
  ctx: AppContext
  /** Aborted when the worker stops or the claim is lost; pass it to model calls so they end with the job. */
  signal: AbortSignal
}

/**
 * Does the work of one job. Throwing fails the attempt (retried later unless it was the last or the error is a
 * PermanentJobError). A handler's final writes should run in a transaction that checks holdsClaim first.
 */
export type JobHandler = (job: JobRow, run: JobRun) => Promise<void>

export interface JobWorkerOptions {
  /** The kinds this worker runs (the composition root lists the product's); it never claims others. */
  handlers: Record<string, JobHandler>
  pollMs?: number
  /** How long a claim lasts without renewal: how soon another worker takes over from a killed process. */
  leaseMs?: number
  /** The wait before the next attempt, after `attempts` failed ones. */
  retryDelayMs?: (attempts: number) => number
  log?: (line: string) => void
}

export interface JobWorker {
  start(ctx: AppContext): void
  /** Look for work now (after enqueueing in this process) instead of at the next poll. */
  kick(): void
  /** Stops polling; a job in progress is aborted and handed back untried for another worker. */
  stop(): Promise<void>
}

/** 2 s, 4 s, 8 s … at most a minute: long enough for a model server to come back, short enough to feel live. */
export const defaultRetryDelayMs = (attempts: number) => Math.min(60_000, 2_000 * 2 ** Math.max(0, attempts - 1))

const STOPPING = new Error('The job worker is stopping')
const LEASE_LOST = new Error('The claim on this job was lost')

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function createJobWorker(sql: Sql, options: JobWorkerOptions): JobWorker {
  const handlers = options.handlers
  const kinds = Object.keys(handlers)
  const pollMs = options.pollMs ?? 500
  const leaseMs = options.leaseMs ?? 60_000
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs
  const log = options.log ?? console.log

  let loop: Promise<void> | null = null
  let stopping = false
  let kicked = false
  let wake: (() => void) | null = null
  let running: AbortController | null = null

  const idle = () =>
    new Promise<void>((resolve) => {
      if (kicked || stopping) {
        kicked = false
        return resolve()
      }
      const done = () => {
        clearTimeout(timer)
        wake = null
        resolve()
      }
      const timer = setTimeout(done, pollMs)
      // The worker never keeps a process alive on its own.
      timer.unref?.()
      wake = done
    })

  async function run(ctx: AppContext, job: JobRow) {
    const controller = new AbortController()
    running = controller
    const heartbeat = setInterval(() => {
      renewLease(sql, job, leaseMs).then(
        (ours) => ours || controller.abort(LEASE_LOST),
        // A missed renewal is retried on the next beat; the lease outlasts two of them.
        () => {},
      )
    }, leaseMs / 3)
    heartbeat.unref?.()
    try {
      await handlers[job.kind](job, { ctx, signal: controller.signal })
      if (!(await completeJob(sql, job))) log(`Job ${job.id} (${job.kind}) finished after losing its claim; the other run decides`)
    } catch (error) {
      if (controller.signal.reason === STOPPING) await releaseJob(sql, job)
      else if (controller.signal.reason === LEASE_LOST) log(`Job ${job.id} (${job.kind}) stopped: its claim was lost`)
      else {
        const permanent = error instanceof PermanentJobError
        const status = await failJob(sql, job, messageOf(error), permanent ? null : retryDelayMs(job.attempts))
        const outcome = status === 'PENDING' ? 'will retry' : status === 'FAILED' ? 'gave up' : 'its claim had already passed on'
        log(`Job ${job.id} (${job.kind}) attempt ${job.attempts}/${job.max_attempts} failed, ${outcome}: ${messageOf(error)}`)
      }
    } finally {
      clearInterval(heartbeat)
      running = null
    }
  }

  async function poll(ctx: AppContext) {
    while (!stopping) {
      try {
        await failAbandonedJobs(sql, kinds)
        const job = await claimJob(sql, kinds, leaseMs)
        if (job && stopping) await releaseJob(sql, job)
        else if (job) {
          await run(ctx, job)
          continue
        }
      } catch (error) {
        if (!stopping) log(`Job worker: ${messageOf(error)}`)
      }
      await idle()
    }
  }

  return {
    start(ctx) {
      if (loop || !kinds.length) return
      stopping = false
      loop = poll(ctx)
    },
    kick() {
      kicked = true
      wake?.()
    },
    async stop() {
      stopping = true
      wake?.()
      running?.abort(STOPPING)
      await loop
      loop = null
    },
  }
}
