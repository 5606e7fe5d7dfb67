// A multipart upload of chat exports, received as it arrives: each file written to its own file in a staging folder
// while its size is counted and its SHA-256 taken, so no export is ever held whole in memory; the text fields kept.
// Files past the batch limit, over the size limit or not named .txt are read to their end and not kept.
//
// A process that dies while it receives, reads or stores an upload leaves its staged files behind, and the folder
// may be shared by several instances (a volume they all mount as DATA_DIR). So every process marks the staged files
// it still uses by touching them now and then (touchStaged), and any process may remove the files nobody has
// written or touched for far longer than that (sweepStaged): those belong to no live upload on any instance.
import Busboy from '@fastify/busboy'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rm, stat, unlink, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { HttpError, badRequest } from '../../http/errors'
import { cleanText } from '../../http/inputText'

const NAME_MAX = 255
/** Small text fields only (userName); anything longer is cut here and refused by the route. */
const FIELD_MAX = 64 * 1024
const FIELDS_MAX = 20

export interface IncomingFile {
  fileName: string
  /** The staged copy; null when the file was not kept. */
  path: string | null
  size: number
  /** SHA-256 of the whole file, hex. */
  sha256: string
  /** Larger than the size limit: its bytes were counted, not kept. */
  tooLarge: boolean
}

export interface IncomingUpload {
  files: IncomingFile[]
  /** Each text field's values, in order. */
  fields: Map<string, string[]>
  /** Removes the staged copies (those moved to storage are gone already). */
  discard(): Promise<void>
}

export interface IncomingLimits {
  /** The staging folder, on the same disk as the storage where it can be. */
  dir: string
  maxBytes: number
  /** Files kept at most; one more is counted (to say there were too many), later ones are not. */
  maxFiles: number
  /** The multipart field the files come in. */
  fileField: string
}

const isText = (name: string) => /\.txt$/i.test(name)

/** The staging folder of a DATA_DIR. */
export const stagingDir = (dataDir: string) => join(dataDir, 'incoming')

/** This process's staged files, from their creation until they are discarded. */
const inUse = new Set<string>()

async function removeStaged(path: string) {
  await rm(path, { force: true })
  inUse.delete(path)
}

/**
 * Marks every staged file this process still uses as used now, so no sweep on any instance takes it however long
 * its upload, reading or storing lasts. A file already moved to storage is gone from the folder: nothing to mark.
 */
export async function touchStaged(now = new Date()): Promise<void> {
  await Promise.all([...inUse].map((path) => utimes(path, now, now).catch(() => {})))
}

/**
 * Removes the files of the staging folder not written or touched for `idleMs` (which must be several times the
 * period of touchStaged), other than this process's own. Sweeps of several instances at once each remove a file at
 * most once: the one whose unlink finds it gone counts nothing. Returns how many files this sweep removed.
 */
export async function sweepStaged(dir: string, idleMs: number, now = new Date()): Promise<number> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[]
    throw e
  })
  let removed = 0
  for (const name of names) {
    const path = join(dir, name)
    if (inUse.has(path)) continue
    const info = await stat(path).catch(() => null)
    if (!info?.isFile() || now.getTime() - info.mtimeMs < idleMs) continue
    try {
      await unlink(path)
      removed++
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    }
  }
  return removed
}

/** Writes `stream` to `file.path` (when kept) until it passes the size limit, hashing and counting every byte. */
async function stage(stream: Readable, file: IncomingFile, maxBytes: number): Promise<void> {
  const hash = new Bun.CryptoHasher('sha256')
  let out = file.path ? createWriteStream(file.path) : null
  const closed = (s: NonNullable<typeof out>) => new Promise<void>((resolve, reject) => s.end((e?: Error | null) => (e ? reject(e) : resolve())))
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      file.size += chunk.length
      hash.update(chunk)
      if (out && file.size > maxBytes) {
        file.tooLarge = true
        await closed(out)
        out = null
      }
      if (out && !out.write(chunk)) await once(out, 'drain')
    }
    if (out) await closed(out)
  } catch (error) {
    out?.destroy()
    throw error
  }
  file.sha256 = hash.digest('hex')
  if (file.tooLarge && file.path) {
    await removeStaged(file.path)
    file.path = null
  }
}

/**
 * Reads the multipart body of `request` into the staging folder. A body that is not multipart has no files (the
 * route says so); one that breaks off or is malformed is a 400; one over the route's size limit keeps its 413.
 */
export async function receiveUpload(request: Request, limits: IncomingLimits): Promise<IncomingUpload> {
  const contentType = request.headers.get('content-type') ?? ''
  const files: IncomingFile[] = []
  const fields = new Map<string, string[]>()
  const discard = async () => {
    await Promise.all(files.map((f) => f.path && removeStaged(f.path)))
  }
  if (!request.body || !/^multipart\/form-data\s*;/i.test(contentType)) return { files, fields, discard }

  await mkdir(limits.dir, { recursive: true })
  const staging: Promise<void>[] = []
  let refused: unknown = null
  let parser: ReturnType<typeof Busboy>
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { files: limits.maxFiles + 1, fields: FIELDS_MAX, fieldSize: FIELD_MAX },
    })
  } catch {
    throw badRequest('The request body could not be read')
  }
  parser.on('file', (field, stream, filename) => {
    if (field !== limits.fileField) return void stream.resume()
    const index = files.length
    let fileName = 'unnamed'
    try {
      fileName = cleanText(filename || 'unnamed', `${field}.${index} (file name)`).slice(0, NAME_MAX) || 'unnamed'
    } catch (error) {
      refused ??= error
    }
    const kept = index < limits.maxFiles && isText(fileName) && !refused
    const file: IncomingFile = { fileName, path: kept ? join(limits.dir, crypto.randomUUID()) : null, size: 0, sha256: '', tooLarge: false }
    if (file.path) inUse.add(file.path)
    files.push(file)
    const staged = stage(stream, file, limits.maxBytes)
    // Awaited after the body ends; a failure here must not go unhandled meanwhile.
    staged.catch(() => {})
    staging.push(staged)
  })
  parser.on('field', (name, value) => {
    try {
      fields.set(name, [...(fields.get(name) ?? []), cleanText(value, name)])
    } catch (error) {
      refused ??= error
    }
  })

  try {
    await pipeline(Readable.fromWeb(request.body as import('node:stream/web').ReadableStream), parser)
    await Promise.all(staging)
  } catch (error) {
    await Promise.allSettled(staging)
    await discard()
    if (error instanceof HttpError) throw error
    // The body's size limit surfaces through the stream that carried it.
    if ((error as { cause?: unknown })?.cause instanceof HttpError) throw (error as { cause: HttpError }).cause
    throw badRequest('The request body could not be read')
  }
  if (refused) {
    await discard()
    throw refused
  }
  return { files, fields, discard }
}
