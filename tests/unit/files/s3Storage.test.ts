// Uploaded files in an S3-compatible bucket, against a small local server speaking the S3 object API.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { diskStorage, s3Storage, type FileStorage } from '../../../api/files/storage'

const objects = new Map<string, Uint8Array>()
/** Multipart uploads in progress: upload id → part number → bytes; and the sizes of every part received. */
const uploads = new Map<string, Map<number, Uint8Array>>()
const partSizes: number[] = []
const scratch = mkdtempSync(join(tmpdir(), 'idealself-storage-'))
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
      const uploadId = url.searchParams.get('uploadId')
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = crypto.randomUUID()
        uploads.set(id, new Map())
        return new Response(`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>uploads</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`, { headers: { 'content-type': 'application/xml' } })
      }
      if (req.method === 'PUT' && uploadId) {
        const part = new Uint8Array(await req.arrayBuffer())
        partSizes.push(part.length)
        uploads.get(uploadId)!.set(Number(url.searchParams.get('partNumber')), part)
        return new Response(null, { status: 200, headers: { etag: `"part-${url.searchParams.get('partNumber')}"` } })
      }
      if (req.method === 'POST' && uploadId) {
        const parts = [...uploads.get(uploadId)!].sort(([a], [b]) => a - b).map(([, bytes]) => bytes)
        objects.set(key, new Uint8Array(Buffer.concat(parts)))
        uploads.delete(uploadId)
        return new Response(`<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>uploads</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`, { headers: { 'content-type': 'application/xml' } })
      }
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
afterAll(() => {
  server?.stop(true)
  rmSync(scratch, { recursive: true, force: true })
})

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

/** A file of `size` bytes that differ from part to part, so a part out of place would show. */
function localFile(name: string, size: number): { path: string; data: Uint8Array } {
  const data = new Uint8Array(size)
  for (let i = 0; i < size; i++) data[i] = (i * 31 + (i >> 20)) & 0xff
  const path = join(scratch, name)
  writeFileSync(path, data)
  return { path, data }
}

test('a large local file goes up in parts as it is read, and comes back whole as a local file', async () => {
  const { path, data } = localFile('big.txt', 12 * 1024 * 1024 + 123)
  partSizes.length = 0
  await storage.putFile('owner-d/big', path)
  // Stored as a multipart upload: never one request, or one buffer, of the whole file.
  expect(partSizes.length).toBeGreaterThan(1)
  expect(Math.max(...partSizes)).toBeLessThan(data.length)
  expect(Buffer.compare(objects.get('owner-d/big')!, data)).toBe(0)

  const local = await storage.local('owner-d/big')
  expect(local).not.toBeNull()
  expect(Buffer.compare(readFileSync(local!.path), data)).toBe(0)
  await local!.release()
  expect(existsSync(local!.path)).toBe(false)
  expect(await storage.local('owner-d/missing')).toBeNull()
})

test('on disk, a staged file is moved into place and read where it lies', async () => {
  const disk = diskStorage(join(scratch, 'files'))
  const { path, data } = localFile('staged.txt', 300_000)
  await disk.putFile('owner-e/one', path)
  expect(existsSync(path)).toBe(false)
  const local = await disk.local('owner-e/one')
  expect(Buffer.compare(readFileSync(local!.path), data)).toBe(0)
  await local!.release()
  expect(await disk.get('owner-e/one')).toEqual(data)
  expect(await disk.local('owner-e/missing')).toBeNull()
  await expect(disk.putFile('../etc/passwd', path)).rejects.toThrow(/bad storage key/)
})
