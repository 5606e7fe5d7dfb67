// The job worker's loop outlives a storm of terminated database connections: it keeps polling, claiming, renewing
// leases and completing, and a job enqueued once the storm is over is done within a bound.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import postgres from 'postgres'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { enqueue, type JobRow } from '../../api/jobs/queue'
import { createJobWorker, type JobWorker } from '../../api/jobs/worker'

const url = process.env.DATABASE_URL
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!url)('the job worker while PostgreSQL ends its connections', () => {
  let app: TestApp
  let worker: JobWorker | null = null
  // Not the app's application_name, so the storm spares it: it enqueues and watches.
  const outside = postgres(url!, { max: 2, onnotice: () => {} })
  beforeAll(async () => {
    app = await startTestApp()
    await app.ctx.jobs.stop()
  })
  afterAll(async () => {
    await worker?.stop()
    await app?.close()
    await outside.end()
  })

  test('a storm of terminated backends: the loop lives on, and a job enqueued after it completes within a bound', async () => {
    const userId = (await app.makeUser({})).id
    const kind = `test-storm-${Date.now().toString(36)}`
    const runs = new Map<string, number>()
    const logs: string[] = []
    worker = createJobWorker(app.ctx.sql, {
      // Each run outlasts a lease renewal (every leaseMs / 3), so renewals meet the storm too.
      handlers: {
        [kind]: async (job) => {
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1)
          await sleep(150)
        },
      },
      pollMs: 50,
      leaseMs: 300,
      retryDelayMs: () => 50,
      log: (line) => logs.push(line),
    })
    worker.start(app.ctx)

    const during: string[] = []
    let terminated = 0
    const stormUntil = Date.now() + 2500
    while (Date.now() < stormUntil) {
      // Every connection of the app, whatever it is doing (polling, claiming, renewing, completing), is ended — but for
      // one reading the type catalogue, as postgres.js does when a connection opens, outside any query of the worker:
      // a loss at that point surfaces as its own unhandled rejection (connectionLoss.test.ts spares them too).
      const ended = await outside`select pg_terminate_backend(pid) from pg_stat_activity
                                  where application_name = 'ideal-self' and datname = current_database()
                                    and backend_start < now() - interval '100 milliseconds'
                                    and query not like '%pg_catalog.pg_type%'`
      terminated += ended.length
      during.push((await enqueue(outside, { kind, userId, maxAttempts: 20 })).id)
      await sleep(60)
    }
    expect(terminated).toBeGreaterThan(20)

    const started = Date.now()
    const after = await enqueue(outside, { kind, userId })
    let row: JobRow | undefined
    while (Date.now() - started < 30_000) {
      ;[row] = await outside<JobRow[]>`select * from jobs where id = ${after.id}`
      if (row.status === 'SUCCEEDED') break
      await sleep(50)
    }
    const took = Date.now() - started
    console.log(`job worker storm: ${terminated} backends ended, ${during.length} jobs enqueued meantime, ${logs.length} log lines; the job after it took ${took} ms`)
    expect(row?.status, logs.slice(-5).join('\n')).toBe('SUCCEEDED')
    // postgres.js waits before reconnecting after repeated losses (its backoff); the bound allows for that.
    expect(took).toBeLessThan(15_000)
    expect(runs.get(after.id)).toBe(1)
    // What was enqueued during the storm is done too, each claim that was lost being taken up again.
    const deadline = Date.now() + 20_000
    let open = during.length
    while (open && Date.now() < deadline) {
      ;[{ open }] = await outside<{ open: number }[]>`select count(*)::int as open from jobs where id in ${outside(during)} and status <> 'SUCCEEDED'`
      if (open) await sleep(100)
    }
    expect(open).toBe(0)
  }, 90_000)
})
