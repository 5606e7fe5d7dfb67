import { describe, expect, test } from 'vitest'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import {
  COMPRESS_MIN_BYTES, compressibleType, deliver, entityTag, fileCacheControl, isHashedAsset, negotiateEncoding, notModified, parseAcceptEncoding,
} from '../../../api/http/delivery'

describe('content coding negotiation', () => {
  // [Accept-Encoding, codings the server has, expected]
  const cases: [string | null, ('br' | 'gzip')[], string][] = [
    // What browsers send.
    ['gzip, deflate, br, zstd', ['br', 'gzip'], 'br'],
    ['gzip, deflate, br', ['br', 'gzip'], 'br'],
    ['gzip, deflate', ['br', 'gzip'], 'gzip'],
    ['br', ['br', 'gzip'], 'br'],
    ['gzip', ['br', 'gzip'], 'gzip'],
    // Only what the server has.
    ['gzip, br', ['gzip'], 'gzip'],
    ['br', ['gzip'], 'identity'],
    ['gzip, br', [], 'identity'],
    // No header, empty header, unknown codings.
    [null, ['br', 'gzip'], 'identity'],
    ['', ['br', 'gzip'], 'identity'],
    ['identity', ['br', 'gzip'], 'identity'],
    ['deflate, zstd', ['br', 'gzip'], 'identity'],
    ['compress', ['br', 'gzip'], 'identity'],
    // Weights: the client's order wins over the server's.
    ['br;q=0.5, gzip;q=0.9', ['br', 'gzip'], 'gzip'],
    ['br;q=1.0, gzip;q=0.8', ['br', 'gzip'], 'br'],
    ['br;q=0.2, gzip;q=0.2', ['br', 'gzip'], 'br'],
    ['gzip;q=0.3, identity;q=0.5', ['br', 'gzip'], 'identity'],
    ['gzip;q=0.3, identity;q=0.1', ['br', 'gzip'], 'gzip'],
    ['br;q=0, gzip', ['br', 'gzip'], 'gzip'],
    ['br;q=0.000, gzip;q=0.001', ['br', 'gzip'], 'gzip'],
    ['br;q=0, gzip;q=0', ['br', 'gzip'], 'identity'],
    // Wildcards.
    ['*', ['br', 'gzip'], 'br'],
    ['*;q=0.5, gzip', ['br', 'gzip'], 'gzip'],
    ['gzip;q=0.5, *', ['br', 'gzip'], 'br'],
    ['*;q=0, gzip;q=0.2', ['br', 'gzip'], 'gzip'],
    ['br;q=0, *', ['br', 'gzip'], 'gzip'],
    // Spelling: case, spaces, the old name, a weight above 1, junk weights, repeated codings.
    ['GZIP, BR', ['br', 'gzip'], 'br'],
    ['  gzip ;  q = 0.7 ,  br ; q=0.6 ', ['br', 'gzip'], 'gzip'],
    ['x-gzip', ['br', 'gzip'], 'gzip'],
    ['br;q=5, gzip;q=1', ['br', 'gzip'], 'br'],
    ['br;q=abc, gzip', ['br', 'gzip'], 'gzip'],
    ['br;q=0, br;q=0.4, gzip;q=0.3', ['br', 'gzip'], 'br'],
    [',,, ;q=1, gzip', ['br', 'gzip'], 'gzip'],
    ['br;level=5', ['br', 'gzip'], 'br'],
  ]
  test.each(cases)('%j with %j → %s', (header, available, expected) => {
    expect(negotiateEncoding(header, available)).toBe(expected)
  })

  test('the weights as read', () => {
    expect(parseAcceptEncoding(null)).toBeNull()
    expect(Object.fromEntries(parseAcceptEncoding('br;q=0.5, GZIP, *;q=0')!)).toEqual({ br: 0.5, gzip: 1, '*': 0 })
  })
})

describe('what is compressed', () => {
  const yes = ['text/html; charset=utf-8', 'text/html', 'application/json', 'application/json; charset=utf-8', 'text/css', 'text/javascript;charset=utf-8',
    'application/javascript', 'image/svg+xml', 'application/manifest+json', 'application/problem+json', 'text/plain;charset=UTF-8', 'application/xml']
  const no = [null, '', 'text/event-stream', 'text/event-stream; charset=utf-8', 'TEXT/EVENT-STREAM', 'image/png', 'image/jpeg', 'audio/ogg', 'audio/opus',
    'video/mp4', 'application/octet-stream', 'application/zip', 'font/woff2', 'multipart/form-data']
  test.each(yes)('%s is compressed', (type) => expect(compressibleType(type)).toBe(true))
  test.each(no)('%s is not compressed', (type) => expect(compressibleType(type)).toBe(false))
})

describe('caching of files', () => {
  const hashed = ['/_astro/ChatRoom.BpX2a7c1.js', '/_astro/global.C3d9xYz0.css', '/_astro/client.Dk2-s_aa.js', '/_astro/inter.aB12cD34.woff2']
  const other = ['/favicon.svg', '/sw.js', '/manifest.webmanifest', '/icons/icon-192.png', '/audio/ideal-self-ambient.opus', '/offline', '/astro/x.js', '/x/_astro/y.js']
  test.each(hashed)('%s is immutable', (p) => {
    expect(isHashedAsset(p)).toBe(true)
    expect(fileCacheControl(p)).toBe('public, max-age=31536000, immutable')
  })
  test.each(other)('%s is revalidated, never immutable', (p) => {
    expect(isHashedAsset(p)).toBe(false)
    expect(fileCacheControl(p)).not.toContain('immutable')
  })
  test('the worker script and the manifest are checked on every visit', () => {
    expect(fileCacheControl('/sw.js')).toBe('no-cache')
    expect(fileCacheControl('/manifest.webmanifest')).toBe('no-cache')
  })
})

describe('entity tags', () => {
  test('each encoded form has its own tag, and any of them names the same content', () => {
    const plain = entityTag('body')
    const br = entityTag('body', 'br')
    const gz = entityTag('body', 'gzip')
    expect(new Set([plain, br, gz]).size).toBe(3)
    for (const tag of [plain, br, gz, `W/${plain}`, `"nope", ${gz}`, '*']) expect(notModified(tag, plain), tag).toBe(true)
    for (const tag of [null, '', entityTag('other'), entityTag('other', 'br'), '"body"', 'W/"x"']) expect(notModified(tag, plain), String(tag)).toBe(false)
  })
})

describe('rendered answers on their way out', () => {
  const big = (n = 4000) => 'Ideal Self — 理想的自己。'.repeat(Math.ceil(n / 20)).slice(0, n)
  const req = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://localhost/app/settings', { method, headers })
  const html = (body = big()) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-store' } })

  test('HTML above the threshold is sent with the best coding the client takes, and Vary names Accept-Encoding', async () => {
    const body = big()
    for (const [accept, coding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip;q=1, br;q=0.5', 'gzip', gunzipSync],
    ] as const) {
      const res = await deliver(req({ 'accept-encoding': accept }), html(body))
      expect(res.headers.get('content-encoding')).toBe(coding)
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
      expect(res.headers.get('cache-control')).toBe('private, no-store')
      const wire = new Uint8Array(await res.arrayBuffer())
      expect(wire.length).toBeLessThan(Buffer.byteLength(body) / 3)
      expect(decode(wire).toString('utf8')).toBe(body)
    }
    const plain = await deliver(req({ 'accept-encoding': 'identity' }), html(body))
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(await plain.text()).toBe(body)
  })

  test('JSON above the threshold is compressed too, and an existing Vary is kept', async () => {
    const body = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Name ${i}` })) })
    const res = await deliver(req({ 'accept-encoding': 'gzip' }), new Response(body, { headers: { 'content-type': 'application/json', vary: 'Cookie' } }))
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(gunzipSync(new Uint8Array(await res.arrayBuffer())).toString()).toBe(body)
  })

  test('a body below the threshold goes as it is', async () => {
    for (const size of [0, 1, 200, COMPRESS_MIN_BYTES - 1]) {
      const res = await deliver(req({ 'accept-encoding': 'br, gzip' }), new Response('x'.repeat(size), { headers: { 'content-type': 'application/json' } }))
      expect(res.headers.get('content-encoding'), String(size)).toBeNull()
      expect((await res.text()).length).toBe(size)
    }
  })

  test('an event stream is never compressed nor held back: each event leaves as it is written', async () => {
    let push!: (s: string) => void
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        push = (s) => c.enqueue(new TextEncoder().encode(s))
      },
    })
    const res = await deliver(req({ 'accept-encoding': 'br, gzip' }), new Response(stream, { headers: { 'content-type': 'text/event-stream' } }))
    expect(res.headers.get('content-encoding')).toBeNull()
    const reader = res.body!.getReader()
    push(`data: ${big(3000)}\n\n`)
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toContain('data: Ideal Self')
    await reader.cancel()
  })

  test('images, audio, already-encoded answers, partial content and HEAD pass untouched', async () => {
    const bytes = new Uint8Array(5000).fill(7)
    const untouched = [
      new Response(bytes, { headers: { 'content-type': 'image/png' } }),
      new Response(bytes, { headers: { 'content-type': 'audio/ogg' } }),
      new Response(bytes, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
      new Response(bytes, { status: 206, headers: { 'content-type': 'text/plain', 'content-range': 'bytes 0-4999/9999' } }),
    ]
    for (const res of untouched) expect(await deliver(req({ 'accept-encoding': 'br' }), res)).toBe(res)
    const head = new Response(null, { headers: { 'content-type': 'text/html' } })
    expect(await deliver(req({ 'accept-encoding': 'br' }, 'HEAD'), head)).toBe(head)
  })

  test('a GET carries a tag; the same tag back gives 304 with no body, whichever coding it was sent in', async () => {
    const body = big()
    const first = await deliver(req({ 'accept-encoding': 'br' }), html(body))
    const tag = first.headers.get('etag')!
    expect(tag).toMatch(/^"[^"]+-br"$/)
    for (const [accept, inm] of [['br', tag], ['gzip', tag], ['identity', tag], ['br', `"x", W/${tag}`], ['br', '*']]) {
      const again = await deliver(req({ 'accept-encoding': accept, 'if-none-match': inm }), html(body))
      expect(again.status, `${accept} ${inm}`).toBe(304)
      expect(again.headers.get('etag')).toBe(entityTag(body))
      expect(await again.text()).toBe('')
    }
    const changed = await deliver(req({ 'accept-encoding': 'br', 'if-none-match': tag }), html(body + '!'))
    expect(changed.status).toBe(200)
    expect(changed.headers.get('content-encoding')).toBe('br')
  })

  test('answers to writes and errors are compressed but never tagged or turned into 304', async () => {
    const body = big()
    const post = await deliver(req({ 'accept-encoding': 'gzip', 'if-none-match': '*' }, 'POST'), new Response(body, { status: 201, headers: { 'content-type': 'application/json' } }))
    expect(post.status).toBe(201)
    expect(post.headers.get('etag')).toBeNull()
    expect(post.headers.get('content-encoding')).toBe('gzip')
    const error = await deliver(req({ 'accept-encoding': 'gzip', 'if-none-match': '*' }), new Response(body, { status: 404, headers: { 'content-type': 'text/html' } }))
    expect(error.status).toBe(404)
    expect(error.headers.get('etag')).toBeNull()
  })
})
