// Housekeeping: what outlived its purpose is removed by the periodic sweep of any instance, each item once, and
// what is still live stays. Rows are made directly with the ages the sweep judges by; the sweep is the runtime's own
// (app.housekeeping.runAll), so these also show it is wired.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { EXPORT_TEMP_PREFIX, dropExpiredArchives } from '../../api/self/dataExport'
import { S3_TEMP_PREFIX } from '../../api/files/storage'
import { sweepTempFolders } from '../../api/files/tempFolders'
import { receiveUpload, stagingDir, sweepStaged } from '../../api/chat-import/analysis/incoming'
import { issueResetToken, resetTokenUser } from '../../api/auth/resetTokens'
import { EXTRACT_MEMORIES } from '../../api/memory/extractJob'
import { BUILD_CHARACTER } from '../../api/characters/buildJob'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
}, 60_000)
afterAll(() => app?.close())

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

/** A READY archive of the person, stored, expiring `expiresInMs` from now (negative: expired). */
async function archive(userId: string, expiresInMs: number) {
  const [row] = await app.ctx.sql<{ id: string }[]>`
    insert into data_exports (user_id, status, size_bytes, ready_at, expires_at)
    values (${userId}, 'READY', 4, now() - interval '1 day', now() + ${expiresInMs} * interval '1 millisecond')
    returning id`
  const key = `${userId}/export-${row.id}-1`
  await app.ctx.storage.put(key, new Uint8Array([80, 75, 5, 6]))
  await app.ctx.sql`update data_exports set storage_key = ${key} where id = ${row.id}`
  return { id: row.id, key }
}

const storedKey = async (id: string) =>
  (await app.ctx.sql<{ storage_key: string | null }[]>`select storage_key from data_exports where id = ${id}`)[0].storage_key

describe('data archives', () => {
  test('an expired archive of a person who never looks again is removed from storage and its row; a live one stays', async () => {
    const { cookie, user } = await app.signUp()
    const old = await archive(user.id, -HOUR)
    const other = await app.signUp()
    const live = await archive(other.user.id, HOUR)

    await app.housekeeping.runAll()

    expect(await app.ctx.storage.get(old.key)).toBeNull()
    expect(await storedKey(old.id)).toBeNull()
    expect(await app.ctx.storage.get(live.key)).not.toBeNull()
    expect(await storedKey(live.id)).toBe(live.key)
    expect((await app.call('GET', `/self/data-exports/${live.id}/download`, { cookie: other.cookie })).status).toBe(200)

    // When the person does come back, they are told it expired, and may ask for a new one.
    const latest = await app.json('GET', '/self/data-exports/latest', { cookie })
    expect(latest.body).toMatchObject({ id: old.id, status: 'READY', expired: true, downloadUrl: null })
    expect((await app.json('GET', `/self/data-exports/${old.id}/download`, { cookie })).status).toBe(410)
    const again = await app.json('POST', '/self/data-exports', { cookie })
    expect(again.status).toBe(202)
    expect(again.body.id).not.toBe(old.id)
  })

  test('sweeps running at once remove each expired archive exactly once, past one batch, without error', async () => {
    const archives = []
    for (let i = 0; i < 5; i++) {
      const { id } = await app.makeUser({})
      for (let j = 0; j < 45; j++) archives.push(await archive(id, -HOUR - j * 1000))
    }
    const removed = new Map<string, number>()
    const storage = {
      async remove(key: string) {
        // A pause with the rows claimed, so both sweeps are inside their transactions together.
        await new Promise((resolve) => setImmediate(resolve))
        removed.set(key, (removed.get(key) ?? 0) + 1)
        await app.ctx.storage.remove(key)
      },
    }
    const counts = await Promise.all([dropExpiredArchives(app.ctx.sql, storage), dropExpiredArchives(app.ctx.sql, storage)])
    for (const a of archives) {
      expect(removed.get(a.key), a.key).toBe(1)
      expect(await storedKey(a.id)).toBeNull()
      expect(await app.ctx.storage.get(a.key)).toBeNull()
    }
    // Others' expired archives in a shared test database may be among them; never one twice.
    expect(counts[0] + counts[1]).toBe(removed.size)
    expect([...removed.values()].every((n) => n === 1)).toBe(true)
    expect(await dropExpiredArchives(app.ctx.sql, storage)).toBe(0)
  })
})

describe('staged chat exports', () => {
  const BOUNDARY = 'staged-upload-boundary'
  const encoder = new TextEncoder()

  /** An upload whose body arrives only as the test sends it, as from a slow connection. */
  function slowUpload() {
    let send!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (send = c) })
    const request = new Request('http://localhost/upload', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit)
    const upload = receiveUpload(request, { dir: stagingDir(app.cfg.dataDir), maxBytes: 10 * 1024 * 1024, maxFiles: 3, fileField: 'files' })
    send.enqueue(encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="chat.txt"\r\nContent-Type: text/plain\r\n\r\n` +
        '[LINE] Chat history\n'.repeat(4000),
    ))
    return {
      upload,
      finish() {
        send.enqueue(encoder.encode(`\r\n--${BOUNDARY}--\r\n`))
        send.close()
      },
    }
  }

  async function staged(name: string, ageMs: number) {
    const dir = stagingDir(app.cfg.dataDir)
    await mkdir(dir, { recursive: true })
    const path = join(dir, name)
    await writeFile(path, 'left behind')
    const then = new Date(Date.now() - ageMs)
    await utimes(path, then, then)
    return path
  }

  test('a file left by a stopped process is removed; a fresh one and one a live upload still uses stay', async () => {
    const dir = stagingDir(app.cfg.dataDir)
    const slow = slowUpload()
    const inUse = await vi.waitFor(() => {
      const [name] = readdirSync(dir)
      expect(name).toBeDefined()
      return join(dir, name)
    })
    // The upload has stalled for longer than the idle limit: its file looks as old as an abandoned one.
    const longAgo = new Date(Date.now() - 3 * HOUR)
    await utimes(inUse, longAgo, longAgo)
    const abandoned = await staged(crypto.randomUUID(), 2 * HOUR)
    const fresh = await staged(crypto.randomUUID(), 10 * 60 * 1000)

    await app.housekeeping.runAll()

    expect(existsSync(abandoned)).toBe(false)
    expect(existsSync(fresh)).toBe(true)
    expect(existsSync(inUse)).toBe(true)
    // Marked in use again, so the sweep of another instance sharing the folder leaves it too.
    expect(Date.now() - statSync(inUse).mtimeMs).toBeLessThan(HOUR)

    slow.finish()
    const upload = await slow.upload
    expect(upload.files).toMatchObject([{ fileName: 'chat.txt', path: inUse, tooLarge: false }])
    await upload.discard()
    expect(existsSync(inUse)).toBe(false)
    // Once discarded it is no longer marked: the next sweep judges its own leftovers by age alone.
    const leftover = await staged(crypto.randomUUID(), 2 * HOUR)
    await app.housekeeping.runAll()
    expect(existsSync(leftover)).toBe(false)
    expect(existsSync(fresh)).toBe(true)
  })

  test('sweeps running at once remove each old file once, without error; no staging folder yet is no error', async () => {
    expect(await sweepStaged(join(app.cfg.dataDir, 'not-there'), HOUR)).toBe(0)
    const old = await Promise.all(Array.from({ length: 30 }, () => staged(crypto.randomUUID(), 2 * HOUR)))
    const counts = await Promise.all([sweepStaged(stagingDir(app.cfg.dataDir), HOUR), sweepStaged(stagingDir(app.cfg.dataDir), HOUR)])
    expect(counts[0] + counts[1]).toBe(old.length)
    for (const path of old) expect(existsSync(path)).toBe(false)
  })
})

describe('temporary folders of archives being written and exports read from the bucket', () => {
  /** A folder as the feature makes it, with a file, nothing written in it for `idleMs`. */
  async function folder(root: string, prefix: string, idleMs: number) {
    const path = await mkdtemp(join(root, prefix))
    await writeFile(join(path, 'archive.zip'), 'PK')
    const then = new Date(Date.now() - idleMs)
    await utimes(join(path, 'archive.zip'), then, then)
    await utimes(path, then, then)
    return path
  }

  test('those of a process killed a day ago are removed; one still being written stays', async () => {
    const oldExport = await folder(tmpdir(), EXPORT_TEMP_PREFIX, 2 * DAY)
    const oldRead = await folder(tmpdir(), S3_TEMP_PREFIX, 2 * DAY)
    const writing = await folder(tmpdir(), EXPORT_TEMP_PREFIX, 2 * DAY)
    // The folder is old, the archive in it is being written now.
    await writeFile(join(writing, 'archive.zip'), 'PK more')
    try {
      await app.housekeeping.runAll()
      expect(existsSync(oldExport)).toBe(false)
      expect(existsSync(oldRead)).toBe(false)
      expect(existsSync(writing)).toBe(true)
    } finally {
      await Promise.all([oldExport, oldRead, writing].map((p) => rm(p, { recursive: true, force: true })))
    }
  })

  test('sweeps at once remove each folder once; a claim left by a sweep that died is taken over once it is old', async () => {
    const root = await mkdtemp(join(tmpdir(), 'idealself-test-sweep-'))
    try {
      const old = await Promise.all(Array.from({ length: 20 }, () => folder(root, 'work-', 2 * DAY)))
      await writeFile(join(root, 'work-not-a-folder'), 'x')
      await mkdir(join(root, 'other-prefix'))
      const counts = await Promise.all([sweepTempFolders('work-', DAY, new Date(), root), sweepTempFolders('work-', DAY, new Date(), root)])
      expect(counts[0] + counts[1]).toBe(old.length)
      expect(readdirSync(root).sort()).toEqual(['other-prefix', 'work-not-a-folder'])

      const claim = join(root, `work-abc.removing-${crypto.randomUUID()}`)
      await mkdir(claim)
      expect(await sweepTempFolders('work-', DAY, new Date(), root)).toBe(0)
      expect(await sweepTempFolders('work-', DAY, new Date(Date.now() + 2 * DAY), root)).toBe(1)
      expect(existsSync(claim)).toBe(false)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

describe('what else outlives its purpose', () => {
  test('sessions ended before the dashboard window are forgotten; recent or live ones stay', async () => {
    const { id } = await app.makeUser({})
    const session = async (createdDaysAgo: number, expiresInDays: number, revoked: boolean) =>
      (await app.ctx.sql<{ id: string }[]>`
        insert into sessions (user_id, created_at, expires_at, revoked_at)
        values (${id}, now() - ${createdDaysAgo} * interval '1 day', now() + ${expiresInDays} * interval '1 day',
                ${revoked ? app.ctx.sql`now() - interval '1 day'` : null})
        returning id`)[0].id
    const expiredLongAgo = await session(60, -30, false)
    const signedOutLongAgo = await session(40, 20, true)
    const expiredRecently = await session(30, -1, false) // still inside the dashboard's window (31 days)
    const signedOutRecently = await session(3, 27, true)
    const live = await session(40, 5, false)

    await app.housekeeping.runAll()

    const left = (await app.ctx.sql<{ id: string }[]>`select id from sessions where user_id = ${id}`).map((r) => r.id)
    expect(left.sort()).toEqual([expiredRecently, signedOutRecently, live].sort())
    expect(left).not.toContain(expiredLongAgo)
    expect(left).not.toContain(signedOutLongAgo)
  })

  test('password-reset links past their hour are forgotten; a live one stays and still works', async () => {
    const { id } = await app.makeUser({})
    const expired = await issueResetToken(app.ctx.sql, id, new Date(Date.now() - 2 * HOUR))
    const live = await issueResetToken(app.ctx.sql, id)

    await app.housekeeping.runAll()

    const [{ n }] = await app.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from password_reset_tokens where user_id = ${id}`
    expect(n).toBe(1)
    expect(await resetTokenUser(app.ctx.sql, live)).toBe(id)
    expect(await resetTokenUser(app.ctx.sql, expired)).toBeNull()
  })

  test('memory extractions finished a day ago are forgotten; recent, unfinished and other jobs stay', async () => {
    const { id } = await app.makeUser({})
    const job = async (kind: string, status: string, updatedHoursAgo: number) =>
      (await app.ctx.sql<{ id: string }[]>`
        insert into jobs (kind, user_id, status, run_after, updated_at)
        values (${kind}, ${id}, ${status}, now() + interval '1 day', now() - ${updatedHoursAgo} * interval '1 hour')
        returning id`)[0].id
    await job(EXTRACT_MEMORIES, 'SUCCEEDED', 30)
    await job(EXTRACT_MEMORIES, 'FAILED', 48)
    const recent = await job(EXTRACT_MEMORIES, 'SUCCEEDED', 2)
    const waiting = await job(EXTRACT_MEMORIES, 'PENDING', 48)
    const build = await job(BUILD_CHARACTER, 'SUCCEEDED', 48)

    try {
      await app.housekeeping.runAll()
      const left = (await app.ctx.sql<{ id: string }[]>`select id from jobs where user_id = ${id}`).map((r) => r.id)
      expect(left.sort()).toEqual([recent, waiting, build].sort())
    } finally {
      // Test files share the database: a waiting extraction left behind would hold up every test that waits for
      // extractions to settle.
      await app.ctx.sql`delete from jobs where user_id = ${id}`
    }
  })
})
