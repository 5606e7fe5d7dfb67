// Uploaded files, named by random ids (never by user input): on disk under DATA_DIR/files, or in an
// S3-compatible bucket when one is configured.
import { copyFile, mkdir, mkdtemp, rename, stat, writeFile, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A stored file as a local path, for readers that stream it from disk; release() once read. */
export interface LocalFile {
  path: string
  release(): Promise<void>
}

export interface FileStorage {
  put(key: string, data: Uint8Array): Promise<void>
  /** Stores the local file at `path` without reading it into memory; the file at `path` may be gone afterwards. */
  putFile(key: string, path: string): Promise<void>
  get(key: string): Promise<Uint8Array | null>
  /** The stored file on local disk (where it lies, or downloaded to a temporary file); null when not stored. */
  local(key: string): Promise<LocalFile | null>
  remove(key: string): Promise<void>
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
    async putFile(key, path) {
      const p = pathOf(key)
      await mkdir(join(p, '..'), { recursive: true })
      try {
        await rename(path, p)
      } catch (error) {
        // Another file system: copied by the kernel, then the original removed.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
        await copyFile(path, p)
        await rm(path, { force: true })
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)))
      } catch {
        return null
      }
    },
    async local(key) {
      const path = pathOf(key)
      try {
        await stat(path)
      } catch {
        return null
      }
      return { path, release: async () => {} }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true })
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

/** A file of the bucket read from local disk is fetched into a temporary folder of this prefix. */
export const S3_TEMP_PREFIX = 'idealself-s3-'

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
    async putFile(key, path) {
      // A multipart upload of the file's chunks as they are read.
      const writer = client.file(checked(key)).writer()
      for await (const chunk of Bun.file(path).stream()) {
        writer.write(chunk)
        await writer.flush()
      }
      await writer.end()
    },
    async get(key) {
      try {
        return new Uint8Array(await client.file(checked(key)).arrayBuffer())
      } catch {
        return null
      }
    },
    async local(key) {
      const dir = await mkdtemp(join(tmpdir(), S3_TEMP_PREFIX))
      const path = join(dir, 'file')
      try {
        await Bun.write(path, client.file(checked(key)))
      } catch {
        await rm(dir, { recursive: true, force: true })
        return null
      }
      return { path, release: () => rm(dir, { recursive: true, force: true }) }
    },
    async remove(key) {
      await client.delete(checked(key))
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
