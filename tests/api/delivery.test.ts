// The server's delivery over a real socket: the build's files in their precompressed forms, pages and API answers
// compressed on the way out, chat streams never, entity tags and 304s, and immutable caching only for hashed files.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { request as httpRequest } from 'node:http'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { serveSite } from '../../scripts/serveSite'
import { precompress } from '../../scripts/build'
import { allEvents, NOW_TEXT, startChat } from '../unit/chat/chatFixtures'
import { securityHeaders } from '../../api/http/securityHeaders'

let app: TestApp
let server: ReturnType<typeof serveSite>
let clientDir: string
const script = `export function greet(name) { return 'Hello, ' + name + '. 你好，' + name + '。' }\n`.repeat(200)
const page = `<!doctype html><html><body>${'<p>Consult your best self — 請教最好的自己</p>'.repeat(300)}</body></html>`

beforeAll(async () => {
  app = await startTestApp()
  clientDir = mkdtempSync(join(tmpdir(), 'idealself-delivery-'))
  mkdirSync(join(clientDir, '_astro'))
  mkdirSync(join(clientDir, 'audio'))
  writeFileSync(join(clientDir, '_astro', 'ChatRoom.Bx1_a9Zq.js'), script)
  writeFileSync(join(clientDir, '_astro', 'tiny.C0ffee12.js'), 'export const a = 1\n')
  writeFileSync(join(clientDir, 'sw.js'), `// worker\n${script}`)
  writeFileSync(join(clientDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Ideal Self', icons: Array.from({ length: 80 }, (_, i) => ({ src: `/icons/${i}.png`, sizes: `${i}x${i}` })) }))
  writeFileSync(join(clientDir, 'audio', 'track.opus'), new Uint8Array(4000).fill(3))
  expect(precompress(clientDir)).toBe(3)
  // Pages come from Astro in production; here one fixed page stands in beside the real API.
  const render = async (request: Request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/page') return new Response(page, { headers: { 'content-type': 'text/html', 'cache-control': 'private, no-store' } })
    return app.app.handle(request)
  }
  const headers = securityHeaders(app.cfg)
  server = serveSite({ app: { render }, clientDir, port: 0, hostname: '127.0.0.1', headers: headers.other, workerHeaders: headers.worker })
})
afterAll(async () => {
  server?.stop(true)
  await app?.close()
  if (clientDir) rmSync(clientDir, { recursive: true, force: true })
})

/** A raw HTTP exchange, so the body is seen as it crossed the wire (fetch would decode it). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('files of the build', () => {
  test('each client gets the best form it accepts: br, then gzip, then the file itself', async () => {
    for (const [accept, coding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['br;q=0.4, gzip', 'gzip', gunzipSync],
      ['deflate', undefined, (b: Buffer) => b],
      [undefined, undefined, (b: Buffer) => b],
    ] as const) {
      const res = await get('/_astro/ChatRoom.Bx1_a9Zq.js', accept ? { 'accept-encoding': accept } : {})
      expect(res.status).toBe(200)
      expect(res.headers['content-encoding']).toBe(coding)
      expect(res.headers['content-type']).toMatch(/javascript/)
      expect(res.headers['vary']).toMatch(/accept-encoding/i)
      expect(decode(res.body).toString()).toBe(script)
      if (coding) expect(res.body.length).toBeLessThan(script.length / 10)
    }
  })

  test('hashed files are immutable; everything else is revalidated by its tag', async () => {
    expect((await get('/_astro/ChatRoom.Bx1_a9Zq.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect((await get('/_astro/tiny.C0ffee12.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
    for (const path of ['/sw.js', '/manifest.webmanifest', '/audio/track.opus']) {
      const res = await get(path, { 'accept-encoding': 'br, gzip' })
      expect(res.status, path).toBe(200)
      expect(res.headers['cache-control'], path).not.toContain('immutable')
      expect(res.headers['etag'], path).toMatch(/^"[^"]+"$/)
      const again = await get(path, { 'accept-encoding': 'br, gzip', 'if-none-match': res.headers['etag'] })
      expect(again.status, path).toBe(304)
      expect(again.body.length).toBe(0)
      // A tag of the content in another coding names the same content.
      expect((await get(path, { 'if-none-match': res.headers['etag'] })).status, path).toBe(304)
      expect((await get(path, { 'if-none-match': '"something-else"' })).status, path).toBe(200)
    }
  })

  test('small and binary files are sent as they are, and the precompressed forms are not files of their own', async () => {
    const tiny = await get('/_astro/tiny.C0ffee12.js', { 'accept-encoding': 'br, gzip' })
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.body.toString()).toBe('export const a = 1\n')
    const audio = await get('/audio/track.opus', { 'accept-encoding': 'br, gzip' })
    expect(audio.headers['content-encoding']).toBeUndefined()
    expect(audio.body.length).toBe(4000)
    expect((await get('/_astro/ChatRoom.Bx1_a9Zq.js.br')).status).toBe(404)
  })

  test('the worker script carries the policy that lets it fetch from this site', async () => {
    const res = await get('/sw.js')
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; connect-src 'self'; frame-ancestors 'none'")
    expect(res.headers['cache-control']).toBe('no-cache')
    expect((await get('/manifest.webmanifest')).headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
  })
})

describe('pages and API answers', () => {
  test('a page is compressed and tagged; the tag back gives 304', async () => {
    const res = await get('/page', { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(brotliDecompressSync(res.body).toString()).toBe(page)
    expect((await get('/page', { 'accept-encoding': 'br', 'if-none-match': res.headers['etag'] })).status).toBe(304)
  })

  test('a large JSON answer of the API is compressed, a small one is not', async () => {
    const big = await get('/api/v1/docs/json', { 'accept-encoding': 'gzip' })
    expect(big.status).toBe(200)
    expect(big.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(big.body).toString()).info.title).toBe('Ideal Self API')
    const small = await get('/api/v1/health', { 'accept-encoding': 'gzip, br' })
    expect(small.status).toBe(200)
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(small.body.toString())).toBeTruthy()
  })

  test('a chat reply streams uncompressed, whatever the client accepts', async () => {
    const chat = await startChat(app)
    const body = JSON.stringify({ currentDateTime: NOW_TEXT, text: 'I keep putting off the hard conversation with my manager' })
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${chat.path}/chat`, {
      method: 'POST',
      headers: { cookie: chat.cookie, 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'br, gzip' },
      body,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(res.headers.get('content-encoding')).toBeNull()
    const events = await allEvents(res)
    expect(events[0].event).toBe('start')
    expect(events.at(-1)!.event).toBe('done')
  })
})
