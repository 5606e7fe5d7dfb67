// A large chat import leaves the server free for everyone else: the upload is written to disk as it arrives (the
// process never holds it), and the export is parsed and measured in a child process, not on the server's thread.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

const MB = 1024 * 1024
let app: TestApp
let cookie: string
let characterId: string

beforeAll(async () => {
  app = await startTestApp({ CHAT_HISTORY_MAX_BYTES: String(96 * MB) })
  ;({ cookie } = await app.signUp())
  const res = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie,
    body: { userName: 'Mia Chen', idealSelfDescription: 'Someone who keeps in touch with the people she loves' },
  })
  characterId = res.body.id
  await vi.waitFor(
    async () => expect((await app.json('GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie })).body.isReady).toBe(true),
    { timeout: 20_000, interval: 50 },
  )
})
afterAll(() => app?.close())

const AUTHORS = ['Mia Chen', 'Alex Turner', 'Grace Kim', '陳小美', 'Leo Martínez']
const authorOf = (i: number) => AUTHORS[(i * 3 + (i >> 4)) % AUTHORS.length]
const WORDS = 'see you at the trail tomorrow morning bring snacks 好的 ありがとう 😅 sounds great maybe later coffee'.split(' ')

/** One block of a WhatsApp export: `count` messages from `start` on, a minute apart, with varied words. */
function exportBlock(start: number, count: number): string {
  let text = ''
  for (let i = start; i < start + count; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + i * 60_000)
    const date = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`
    const time = `${String(day.getUTCHours()).padStart(2, '0')}:${String(day.getUTCMinutes()).padStart(2, '0')}`
    const words = Array.from({ length: 4 + (i % 9) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ')
    text += `${date}, ${time} - ${authorOf(i)}: ${words}\n`
  }
  return text
}

const BLOCK_MESSAGES = 600
const BLOCKS = 8
/** Blocks of messages made once and sent over and over, so the test itself makes no garbage as it sends. */
const blocks = Array.from({ length: BLOCKS }, (_, b) => new TextEncoder().encode(exportBlock(b * BLOCK_MESSAGES, BLOCK_MESSAGES)))
/** Mia's messages in `count` blocks sent in turn. */
const miasMessages = (count: number) => {
  let mine = 0
  for (let block = 0; block < count; block++)
    for (let i = 0; i < BLOCK_MESSAGES; i++) if (authorOf((block % BLOCKS) * BLOCK_MESSAGES + i) === 'Mia Chen') mine++
  return mine
}

/** A multipart body of one export of about `bytes`, read as the server asks for it: nobody ever has it whole. */
function streamedUpload(bytes: number, userName?: string) {
  const boundary = `----load${crypto.randomUUID()}`
  const encoder = new TextEncoder()
  const head = encoder.encode(
    (userName ? `--${boundary}\r\nContent-Disposition: form-data; name="userName"\r\n\r\n${userName}\r\n` : '') +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  let sent = 0
  let count = 0
  let phase: 'head' | 'file' | 'tail' | 'done' = 'head'
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (phase === 'head') {
        phase = 'file'
        return controller.enqueue(head)
      }
      if (phase === 'file') {
        const block = blocks[count++ % BLOCKS]
        sent += block.length
        controller.enqueue(block)
        if (sent >= bytes) phase = 'tail'
        return
      }
      if (phase === 'tail') {
        phase = 'done'
        return controller.enqueue(tail)
      }
      controller.close()
    },
  })
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, size: () => sent, blocks: () => count }
}

const post = (query: string, upload: ReturnType<typeof streamedUpload>) =>
  app.app.handle(
    new Request(`http://localhost/api/v1/chatbots/characters/${characterId}/chat-history${query}`, {
      method: 'POST',
      headers: { cookie, 'content-type': upload.contentType },
      body: upload.body,
      duplex: 'half',
    } as RequestInit),
  )

const memory = (field: 'VmRSS' | 'VmHWM') =>
  Number(readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))![1]) * 1024

/** The command lines of this process's children. */
function childCommands(): string[] {
  const commands: string[] = []
  for (const task of readdirSync('/proc/self/task')) {
    let children = ''
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim()
    } catch {}
    for (const pid of children ? children.split(/\s+/) : []) {
      try {
        commands.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '))
      } catch {}
    }
  }
  return commands
}

/**
 * While `work` runs: the longest gap between turns of this thread's event loop, the children seen, and how far
 * this process's memory rose above where it was (the kernel's peak, reset first, so a moment the thread was too busy
 * to look is counted too).
 */
async function watch<T>(work: () => Promise<T>) {
  let last = performance.now()
  let longestGap = 0
  const children = new Set<string>()
  const before = memory('VmRSS')
  writeFileSync('/proc/self/clear_refs', '5')
  const timer = setInterval(() => {
    const now = performance.now()
    longestGap = Math.max(longestGap, now - last)
    last = now
    for (const command of childCommands()) children.add(command)
  }, 10)
  try {
    const result = await work()
    return { result, longestGap, children: [...children], growth: memory('VmHWM') - before }
  } finally {
    clearInterval(timer)
  }
}

describe('a large import', () => {
  test('is parsed in a child process while the server keeps answering', async () => {
    const upload = streamedUpload(40 * MB)
    const seen = await watch(async () => {
      const res = await post('?analyzeNameOnly=true', upload)
      return { status: res.status, body: await res.json() }
    })
    expect(seen.result.status).toBe(200)
    // In order of first appearance.
    expect(seen.result.body).toEqual({ hasError: false, erroneousFiles: [], names: ['Mia Chen', '陳小美', 'Alex Turner', 'Leo Martínez', 'Grace Kim'] })
    expect(upload.size()).toBeGreaterThan(40 * MB)
    // The parse ran in the export worker's process…
    expect(seen.children.some((c) => c.includes('exportWorker.ts'))).toBe(true)
    // …so this thread, which serves every request, never stopped for long: parsing the 40 MB here had stopped it
    // for over a second; the bound leaves room for a loaded machine (under 0.3 s seen with a load average of 15).
    expect(seen.longestGap).toBeLessThan(600)
    // The upload streamed through: the process grew by a few megabytes, far less than the file (holding the body,
    // a copy and the parsed messages, it had grown by about 200 MB).
    expect(seen.growth / MB).toBeLessThan(40)
  })

  test("an import's analysis also runs in a child process, and nothing stays staged", async () => {
    const upload = streamedUpload(8 * MB, 'Mia Chen')
    const seen = await watch(async () => {
      const res = await post('', upload)
      expect(res.status).toBe(202)
      const { importId } = await res.json()
      await vi.waitFor(
        async () => {
          const imports = (await app.json('GET', `/chatbots/characters/${characterId}/chat-history`, { cookie })).body
          expect(imports.find((i: { id: string }) => i.id === importId)?.status).toBe('SUCCEEDED')
        },
        { timeout: 60_000, interval: 100 },
      )
      return importId as string
    })
    const commands = seen.children.filter((c) => c.includes('exportWorker.ts'))
    expect(commands.length).toBeGreaterThan(0)
    expect(seen.longestGap).toBeLessThan(600)
    const [row] = await app.ctx.sql<{ total_bytes: string; user_message_count: number }[]>`
      select total_bytes, user_message_count from chat_history_imports where id = ${seen.result}`
    expect(Number(row.total_bytes)).toBe(upload.size())
    // Mia's messages, counted from the export in the child.
    expect(row.user_message_count).toBe(miasMessages(upload.blocks()))
    expect(readdirSync(join(app.cfg.dataDir, 'incoming'))).toEqual([])
  })
})
