// Uploaded files in an S3-compatible bucket, against a small local server speaking the S3 object API.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { s3Storage, type FileStorage } from '../../../api/files/storage'

const objects = new Map<string, Uint8Array>()
let server: ReturnType<typeof Bun.serve>
let storage: FileStorage

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const [, bucket, ...rest] = url.pathname.split('/')
      const key = decodeURIComponent(rest.join('/'))
      if (bucket !== 'uploads') return new Response('NoSuchBucket', { status: 404 })
      if (req.method === 'PUT') {
        objects.set(key, new Uint8Array(await req.arrayBuffer()))
        return new Response(null, { status: 200, headers: { etag: '"1"' } })
      }
      if (req.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? ''
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix))
        const xml = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>uploads</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${keys.map((k) => `<Contents><Key>${k}</Key><Size>${objects.get(k)!.length}</Size></Contents>`).join('')}</ListBucketResult>`
        return new Response(xml, { headers: { 'content-type': 'application/xml' } })
      }
      if (req.method === 'GET') {
        const body = objects.get(key)
        return body ? new Response(body) : new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404, headers: { 'content-type': 'application/xml' } })
      }
      if (req.method === 'DELETE') {
        objects.delete(key)
        return new Response(null, { status: 204 })
      }
      return new Response('unsupported', { status: 400 })
    },
  })
  storage = s3Storage({ bucket: 'uploads', endpoint: `http://127.0.0.1:${server.port}`, region: 'us-east-1', accessKeyId: 'test', secretAccessKey: 'test-secret' })
})
afterAll(() => server?.stop(true))

test('put, get and remove an object', async () => {
  const data = new Uint8Array([1, 2, 3, 4])
  await storage.put('owner-a/file-1', data)
  expect(await storage.get('owner-a/file-1')).toEqual(data)
  await storage.remove('owner-a/file-1')
  expect(await storage.get('owner-a/file-1')).toBeNull()
})

test("removing an owner's files leaves everyone else's", async () => {
  await storage.put('owner-b/one', new Uint8Array([1]))
  await storage.put('owner-b/two', new Uint8Array([2]))
  await storage.put('owner-c/three', new Uint8Array([3]))
  await storage.removeOwner('owner-b')
  expect(await storage.get('owner-b/one')).toBeNull()
  expect(await storage.get('owner-b/two')).toBeNull()
  expect(await storage.get('owner-c/three')).toEqual(new Uint8Array([3]))
})

test('keys that are not storage keys are refused', async () => {
  await expect(storage.put('../etc/passwd', new Uint8Array([1]))).rejects.toThrow(/bad storage key/)
})
