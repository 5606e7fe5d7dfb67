import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama } from '../helpers/fakeOllama'
import { openPostgres, type Sql } from '../../api/db/database'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { PermanentJobError, claimJob, enqueue, type JobRow } from '../../api/jobs/queue'
import { createJobWorker, type JobHandler, type JobWorker, type JobWorkerOptions } from '../../api/jobs/worker'
import { BUILD_CHARACTER } from '../../api/characters/buildJob'
import { JOB_HANDLERS } from '../../api/runtime'

let app: TestApp
let sql: Sql
let userId: string
const workers: JobWorker[] = []

beforeAll(async () => {
  app = await startTestApp()
  sql = app.ctx.sql
  // Every worker in this file is made by the test itself, so each one's options are known.
  await app.ctx.jobs.stop()
  userId = (await app.makeUser({})).id
})
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()))
  await app?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await sleep(25)
  }
}

let kinds = 0
/** A kind no other test (or leftover row from an earlier run) uses. */
const newKind = (name: string) => `test-${name}-${Date.now().toString(36)}-${++kinds}`

/** A worker with quick polls and retries; without handlers it runs the product's own kinds. */
function worker(handlers: Record<string, JobHandler> = JOB_HANDLERS, options: Partial<JobWorkerOptions> = {}, on: Sql = sql) {
  const w = createJobWorker(on, { pollMs: 50, retryDelayMs: () => 100, log: () => {}, handlers, ...options })
  workers.push(w)
  w.start(app.ctx)
  return w
}

const jobRow = async (id: string) => (await sql<JobRow[]>`select * from jobs where id = ${id}`)[0]
const settled = (id: string) => waitFor(async () => {
  const row = await jobRow(id)
  return row.status === 'SUCCEEDED' || row.status === 'FAILED' ? row : null
})

describe('queue and worker', () => {
  test('kick() runs a job enqueued in this process at once, with its payload', async () => {
    const kind = newKind('kick')
    const seen: JobRow[] = []
    const w = worker({ [kind]: async (job) => void seen.push(job) }, { pollMs: 60_000 })
    await sleep(100) // the first poll found nothing; the next would be a minute away
    const job = await enqueue(sql, { kind, userId, payload: { greeting: 'hi', n: 2 } })
    const started = Date.now()
    w.kick()
    const done = await settled(job.id)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 1, locked_until: null, last_error: null })
    expect(seen.map((j) => [j.id, j.payload, j.status])).toEqual([[job.id, { greeting: 'hi', n: 2 }, 'RUNNING']])
  })

  test('a failed attempt is retried after the backoff, with the error visible meanwhile', async () => {
    const kind = newKind('retry')
    const runs: number[] = []
    const w = worker(
      {
        [kind]: async () => {
          runs.push(Date.now())
          if (runs.length < 3) throw new Error(`boom ${runs.length}`)
        },
      },
      { retryDelayMs: (attempts) => 300 * attempts },
    )
    const job = await enqueue(sql, { kind, userId })
    w.kick()
    const waiting = await waitFor(async () => {
      const row = await jobRow(job.id)
      return row.attempts === 1 && row.status === 'PENDING' ? row : null
    })
    expect(waiting.last_error).toBe('boom 1')
    expect(waiting.run_after.getTime()).toBeGreaterThan(Date.now() - 50)
    const done = await settled(job.id)
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 3, last_error: null })
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(250)
    expect(runs[2] - runs[1]).toBeGreaterThanOrEqual(550)
  })

  test('after max_attempts the job is FAILED with its last error; a permanent error fails at once', async () => {
    const kind = newKind('fail')
    let runs = 0
    const lines: string[] = []
    const w = worker(
      {
        [kind]: async (job) => {
          runs++
          if (job.payload.permanent) throw new PermanentJobError('cannot ever work')
          throw new Error(`attempt ${job.attempts} broke`)
        },
      },
      { log: (line) => lines.push(line) },
    )
    const failing = await enqueue(sql, { kind, userId, maxAttempts: 2 })
    const permanent = await enqueue(sql, { kind, userId, payload: { permanent: true }, maxAttempts: 5 })
    w.kick()
    expect(await settled(failing.id)).toMatchObject({ status: 'FAILED', attempts: 2, last_error: 'attempt 2 broke', locked_until: null })
    expect(await settled(permanent.id)).toMatchObject({ status: 'FAILED', attempts: 1, last_error: 'cannot ever work' })
    await sleep(300)
    expect(runs).toBe(3)
    expect(lines.some((l) => l.includes('attempt 2/2 failed, gave up: attempt 2 broke'))).toBe(true)
  })

  test('a job whose worker died is claimed again once its lease expires; on its last attempt it fails instead', async () => {
    const kind = newKind('lease')
    let ran = 0
    const again = await enqueue(sql, { kind, userId, maxAttempts: 3 })
    const last = await enqueue(sql, { kind, userId, maxAttempts: 1 })
    // A process claims both and dies: nobody finishes or renews them.
    expect((await claimJob(sql, [kind], 60_000))?.id).toBe(again.id)
    expect((await claimJob(sql, [kind], 60_000))?.id).toBe(last.id)
    worker({ [kind]: async () => void ran++ })
    await sleep(300)
    expect((await jobRow(again.id)).status).toBe('RUNNING')
    expect(ran).toBe(0)

    await sql`update jobs set locked_until = now() - interval '1 second' where kind = ${kind}`
    expect(await settled(again.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 })
    expect(await settled(last.id)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      last_error: 'The worker running the last attempt stopped before it finished',
    })
    expect(ran).toBe(1)
  })

  test('the lease is renewed while a slow job runs, so no other worker takes it over', async () => {
    const kind = newKind('slow')
    const runs: string[] = []
    const slow: JobHandler = async (job) => {
      runs.push(job.id)
      await sleep(1_200)
    }
    const job = await enqueue(sql, { kind, userId })
    worker({ [kind]: slow }, { leaseMs: 300 })
    await waitFor(async () => runs.length === 1)
    worker({ [kind]: slow }, { leaseMs: 300 })
    expect(await settled(job.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 })
    expect(runs).toEqual([job.id])
  })

  test('stop() hands a running job back untried, for the next worker', async () => {
    const kind = newKind('stop')
    const runs: string[] = []
    const waitForAbort: JobHandler = (job, { signal }) =>
      new Promise((_, reject) => {
        runs.push(job.id)
        signal.addEventListener('abort', () => reject(signal.reason))
      })
    const job = await enqueue(sql, { kind, userId })
    const first = worker({ [kind]: waitForAbort })
    await waitFor(async () => runs.length === 1)
    await first.stop()
    expect(await jobRow(job.id)).toMatchObject({ status: 'PENDING', attempts: 0, locked_until: null })
    worker({ [kind]: async () => void runs.push(job.id) })
    expect(await settled(job.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 })
    expect(runs).toEqual([job.id, job.id])
  })

  test('a worker claims only the kinds it has a handler for', async () => {
    const known = newKind('known')
    const unknown = newKind('unknown')
    const job = await enqueue(sql, { kind: unknown, userId })
    worker({ [known]: async () => {} })
    await sleep(300)
    expect(await jobRow(job.id)).toMatchObject({ status: 'PENDING', attempts: 0 })
  })
})

describe('two workers never run the same job', () => {
  test('concurrent claims take different jobs', async () => {
    const kind = newKind('race')
    const jobs = await Promise.all(Array.from({ length: 8 }, () => enqueue(sql, { kind, userId })))
    const claims = await Promise.all(Array.from({ length: 24 }, () => claimJob(sql, [kind], 60_000)))
    const ids = claims.filter((c): c is JobRow => c !== null).map((c) => c.id)
    expect(ids).toHaveLength(8)
    expect(new Set(ids)).toEqual(new Set(jobs.map((j) => j.id)))
  })

  test('two workers, each with its own connections when the database allows, share the work without overlap', async () => {
    const kind = newKind('share')
    // A second pool is a second API process as far as PostgreSQL can tell; PGlite has a single connection.
    const second = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL, 3) : null
    try {
      const runs: { id: string; by: string }[] = []
      const handler = (by: string): JobHandler => async (job) => {
        runs.push({ id: job.id, by })
        await sleep(15)
      }
      const jobs = await Promise.all(Array.from({ length: 20 }, () => enqueue(sql, { kind, userId })))
      worker({ [kind]: handler('a') })
      worker({ [kind]: handler('b') }, {}, second?.sql ?? sql)
      for (const job of jobs) expect(await settled(job.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 })
      expect(runs).toHaveLength(20)
      expect(new Set(runs.map((r) => r.id)).size).toBe(20)
      expect(new Set(runs.map((r) => r.by))).toEqual(new Set(['a', 'b']))
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()))
      await second?.close()
    }
  })
})

describe('the build-character job survives a killed process', () => {
  async function onboard(target: TestApp, description: string) {
    const { cookie } = await target.signUp()
    await target.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    await target.json('POST', '/chatbots/training-data/improved-ideal-self-description', { cookie, body: { idealSelfDescription: description } })
    const created = await target.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
      cookie,
      body: { userName: 'Ari', idealSelfDescription: description },
    })
    expect(created.status).toBe(200)
    return { cookie, characterId: created.body.characterId as string }
  }

  const buildJobOf = async (db: Sql, characterId: string) =>
    (await db<JobRow[]>`select * from jobs where character_id = ${characterId} and kind = ${BUILD_CHARACTER}`)[0]

  test('in-process: a claim left by a dead worker is picked up by a fresh worker once its lease expires', async () => {
    const { cookie, characterId } = await onboard(app, 'Calm under deadlines')
    const orphan = await claimJob(sql, [BUILD_CHARACTER], 60_000)
    expect(orphan?.character_id).toBe(characterId)
    worker()
    await sleep(300)
    expect((await buildJobOf(sql, characterId)).status).toBe('RUNNING')
    expect((await app.json('GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie })).body.isReady).toBe(false)

    await sql`update jobs set locked_until = now() - interval '1 second' where id = ${orphan!.id}`
    await waitFor(async () => (await app.json('GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie })).body.isReady)
    expect(await settled(orphan!.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 })
  })

  test.runIf(Boolean(process.env.DATABASE_URL))(
    'across processes: SIGKILL mid-job, and another worker finishes the character',
    async () => {
      const dbName = `idealself_jobs_${Date.now()}_${process.pid}`
      await sql.unsafe(`create database ${dbName}`)
      const url = new URL(process.env.DATABASE_URL!)
      url.pathname = `/${dbName}`
      const model = startFakeOllama()
      // The portrait is written slowly: the child is still in the middle of it when it is killed.
      let slowPortraits = true
      model.reply((input) => {
        const reply = defaultReply(input)
        const portrait = JSON.stringify(input.schema ?? {}).includes('persona')
        return portrait && slowPortraits ? { ...reply, chunkDelayMs: 250 } : reply
      })
      const side = await startTestApp({ DATABASE_URL: url.toString() }, { model: createOllamaProvider({ host: model.url, model: 'llama3.2:1b' }) })
      await side.ctx.jobs.stop()
      const child = Bun.spawn([process.execPath, 'tests/helpers/jobWorkerProcess.ts'], {
        env: { ...process.env, DATABASE_URL: url.toString(), OLLAMA_HOST: model.url, JOB_LEASE_MS: '1500', ADMIN_EMAIL: uniqueEmail('worker-admin') },
        stdout: 'pipe',
        stderr: 'inherit',
      })
      let rescuer: JobWorker | null = null
      try {
        const reader = child.stdout.getReader()
        let out = ''
        while (!out.includes('ready')) {
          const { value, done } = await reader.read()
          if (done) throw new Error(`worker process exited before it was ready: ${out}`)
          out += new TextDecoder().decode(value)
        }

        const { cookie, characterId } = await onboard(side, 'Brave enough to ask for help')
        await waitFor(async () => model.chats().some((r) => JSON.stringify(r.body.format ?? {}).includes('persona')))
        const running = await buildJobOf(side.ctx.sql, characterId)
        expect(running).toMatchObject({ status: 'RUNNING', attempts: 1 })
        child.kill('SIGKILL')
        await child.exited

        slowPortraits = false
        rescuer = createJobWorker(side.ctx.sql, { handlers: JOB_HANDLERS, pollMs: 50, log: () => {} })
        rescuer.start(side.ctx)
        await waitFor(
          async () => (await side.json('GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie })).body.isReady,
          15_000,
        )
        // The character is marked ready in the handler's transaction; the job is marked done right after it.
        const done = await waitFor(async () => {
          const job = await buildJobOf(side.ctx.sql, characterId)
          return job.status === 'RUNNING' ? null : job
        })
        expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 2, last_error: null })
        const dev = await side.json('GET', `/chatbots/characters/${characterId}`, { cookie })
        expect(dev.body.characterGenerationJobs).toEqual([expect.objectContaining({ status: 'SUCCEEDED', attempts: 2 })])
      } finally {
        child.kill('SIGKILL')
        await rescuer?.stop()
        await side.close()
        model.stop()
        await sql.unsafe(`drop database if exists ${dbName} with (force)`)
      }
    },
    40_000,
  )
})
