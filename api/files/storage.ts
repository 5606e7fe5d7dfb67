// Uploaded files, named by random ids (never by user input): on disk under DATA_DIR/files, or in an
// S3-compatible bucket when one is configured.
import { mkdir, writeFile, readFile, rm, copyFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

export interface FileStorage {
  put(key: string, data: Uint8Array): Promise<void>
  get(key: string): Promise<Uint8Array | null>
  remove(key: string): Promise<void>
  /** Stores a file from the local disk without reading it into memory (large archives). */
  putFile(key: string, path: string): Promise<void>
  /** A lazily read handle for streaming to a response, or null when nothing is stored under the key. */
  open(key: string): Promise<Blob | null>
  /** Everything stored for one owner (keys are `<ownerId>/<id>`). */
  removeOwner(ownerId: string): Promise<void>
}

export function diskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    if (!/^[a-z0-9-]+\/[a-z0-9-]+$/i.test(key)) throw new Error(`bad storage key ${key}`)
    return join(root, key)
  }
  return {
    async put(key, data) {
      const p = pathOf(key)
      await mkdir(join(p, '..'), { recursive: true })
      await writeFile(p, data)
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)))
      } catch {
        return null
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true })
    },
    async putFile(key, path) {
      const p = pathOf(key)
      await mkdir(join(p, '..'), { recursive: true })
      await copyFile(path, p)
    },
    async open(key) {
      const p = pathOf(key)
      const found = await stat(p).then((s) => s.isFile(), () => false)
      return found ? Bun.file(p) : null
    },
    async removeOwner(ownerId) {
      if (!/^[a-z0-9-]+$/i.test(ownerId)) throw new Error(`bad owner id ${ownerId}`)
      await rm(join(root, ownerId), { recursive: true, force: true })
    },
  }
}

export interface S3Settings {
  bucket: string
  endpoint?: string
  region?: string
  accessKeyId?: string
  secretAccessKey?: string
}

export function s3Storage(settings: S3Settings): FileStorage {
  const client = new Bun.S3Client(settings)
  const checked = (key: string) => {
    if (!/^[a-z0-9-]+\/[a-z0-9-]+$/i.test(key)) throw new Error(`bad storage key ${key}`)
    return key
  }
  return {
    async put(key, data) {
      await client.write(checked(key), data)
    },
    async get(key) {
      try {
        return new Uint8Array(await client.file(checked(key)).arrayBuffer())
      } catch {
        return null
      }
    },
    async remove(key) {
      await client.delete(checked(key))
    },
    async putFile(key, path) {
      // Bun uploads a disk file in parts, streaming it.
      await client.write(checked(key), Bun.file(path))
    },
    async open(key) {
      const file = client.file(checked(key))
      return (await file.exists()) ? file : null
    },
    async removeOwner(ownerId) {
      if (!/^[a-z0-9-]+$/i.test(ownerId)) throw new Error(`bad owner id ${ownerId}`)
      // Listing pages through everything under the owner's prefix.
      for (;;) {
        const page = await client.list({ prefix: `${ownerId}/`, maxKeys: 1000 })
        const keys = (page.contents ?? []).map((o) => o.key)
        await Promise.all(keys.map((k) => client.delete(k)))
        if (!page.isTruncated || keys.length === 0) return
      }
    },
  }
}
