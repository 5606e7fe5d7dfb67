// Bodies are refused by their declared length before any is read, and a body without one is cut off at its
// route's limit — with the API's 413, never a parse of everything first or a dropped connection.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connect } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { serveSite } from '../../scripts/serveSite'
import { JSON_BODY_MAX } from '../../api/http/bodyLimit'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ UPLOAD_MAX_BYTES: String(1024 * 1024), CHAT_HISTORY_MAX_BYTES: String(2 * 1024 * 1024) })
})
afterAll(() => app?.close())

/** A body of `total` bytes made on demand, counting how much of it anyone read. */
function lazyBody(total: number, head = '', chunk = 64 * 1024) {
  const state = { pulled: 0 }
  const encoder = new TextEncoder()
  let sentHead = false
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sentHead && head) {
        sentHead = true
        state.pulled += head.length
        return controller.enqueue(encoder.encode(head))
      }
      if (state.pulled >= total) return controller.close()
      const n = Math.min(chunk, total - state.pulled)
      state.pulled += n
      controller.enqueue(new Uint8Array(n).fill(0x61))
    },
  })
  return { stream, state }
}

const request = (path: string, init: { body: BodyInit; headers?: Record<string, string>; cookie?: string }) =>
  new Request(`http://localhost/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
    body: init.body,
    duplex: 'half',
  } as RequestInit)

async function expect413(res: Response) {
  expect(res.status).toBe(413)
  const body = await res.json()
  expect(body).toMatchObject({ statusCode: 413, error: 'PayloadTooLarge' })
  expect(body.message).toMatch(/^The request body is larger than this call accepts \(\d/)
}

describe('body limits', () => {
  test('a declared 100 MB JSON body to an open route is refused before a byte is read', async () => {
    const { stream, state } = lazyBody(100 * 1024 * 1024, '{"username":"')
    await expect413(await app.app.handle(request('/auth/login/credential', { body: stream, headers: { 'content-length': String(100 * 1024 * 1024) } })))
    expect(state.pulled).toBeLessThan(256 * 1024)
  })

  test('a chunked JSON body stops being read just past the limit', async () => {
    for (const path of ['/auth/login/credential', '/auth/login/oauth', '/auth/forgot-password', '/analytics/events']) {
      const { stream, state } = lazyBody(100 * 1024 * 1024, '{"username":"')
      await expect413(await app.app.handle(request(path, { body: stream })))
      expect(state.pulled, path).toBeLessThan(JSON_BODY_MAX + 256 * 1024)
    }
  })

  test('a body within the limit is read as before', async () => {
    const { cookie } = await app.signUp()
    const name = 'n'.repeat(100)
    const res = await app.app.handle(request('/chatbots/conversations', { cookie, body: JSON.stringify({ name }) }))
    expect(res.status).toBe(200)
  })

  test('image uploads are refused at the configured limit, declared or streamed', async () => {
    const { cookie } = await app.signUp()
    const declared = lazyBody(200 * 1024 * 1024)
    await expect413(
      await app.app.handle(
        request('/self/file', { cookie, body: declared.stream, headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(200 * 1024 * 1024) } }),
      ),
    )
    // At most the one chunk a stream pulls ahead on its own.
    expect(declared.state.pulled).toBeLessThanOrEqual(64 * 1024)
    const streamed = lazyBody(200 * 1024 * 1024, '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n')
    await expect413(await app.app.handle(request('/self/file', { cookie, body: streamed.stream, headers: { 'content-type': 'multipart/form-data; boundary=x' } })))
    expect(streamed.state.pulled).toBeLessThan(1024 * 1024 + 512 * 1024)
    // A small image still uploads.
    const form = new FormData()
    form.append('file', new File([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')], 'a.png', { type: 'image/png' }))
    expect((await app.json('POST', '/self/file', { cookie, form })).status).toBe(200)
  })

  test('a batch of chat exports over three times the file limit gets a 413; one within it is read', async () => {
    const { cookie, user } = await app.signUp()
    const [character] = await app.ctx.sql<{ id: string }[]>`
      insert into characters (user_id, name) values (${user.id}, 'Ideal Self') returning id`
    const path = `/chatbots/characters/${character.id}/chat-history?analyzeNameOnly=true`
    const big = lazyBody(7 * 1024 * 1024)
    await expect413(
      await app.app.handle(
        request(path, { cookie, body: big.stream, headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(7 * 1024 * 1024) } }),
      ),
    )
    const form = new FormData()
    form.append('files', new File(['not a chat'], 'chat.txt', { type: 'text/plain' }))
    const ok = await app.json('POST', path, { cookie, form })
    expect(ok.status).toBeLessThan(500)
    expect(ok.status).not.toBe(413)
  })

  test('over a real socket, a body past every cap gets the 413 JSON answer instead of a dropped connection', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'idealself-client-'))
    const server = serveSite({ app: { render: (r) => app.app.handle(r) }, clientDir, port: 0, hostname: '127.0.0.1' })
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port!, '127.0.0.1')
        let got = ''
        socket.on('data', (d) => {
          got += d
          if (got.includes('\r\n\r\n') && got.includes('}')) {
            socket.destroy()
            resolve(got)
          }
        })
        socket.on('error', reject)
        setTimeout(() => reject(new Error(`no answer within 5 s: ${JSON.stringify(got)}`)), 5000)
        socket.write(
          'POST /api/v1/chatbots/characters/x/chat-history HTTP/1.1\r\nHost: localhost\r\n' +
            'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 1000000000\r\n\r\n--x\r\n',
        )
      })
      expect(answer).toMatch(/^HTTP\/1\.1 413/)
      expect(JSON.parse(answer.slice(answer.indexOf('{')))).toMatchObject({ statusCode: 413, error: 'PayloadTooLarge' })
    } finally {
      server.stop(true)
      rmSync(clientDir, { recursive: true, force: true })
    }
  })
})
