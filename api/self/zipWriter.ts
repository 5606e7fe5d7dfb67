// A ZIP archive written straight to a file on disk, one entry after another (fflate's streaming Zip). Each entry
// is compressed chunk by chunk and its bytes go to the file synchronously as they come out, so memory holds one
// chunk at a time however large the archive grows.
import { closeSync, openSync, writeSync } from 'node:fs'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'

const encoder = new TextEncoder()

export interface ZipEntry {
  /** Adds text (UTF-8) or bytes to the entry. */
  write(data: string | Uint8Array): void
  end(): void
}

export interface ZipWriter {
  /** Starts an entry; the previous one must have ended. Already-compressed data (images) is stored as is. */
  entry(name: string, opts?: { store?: boolean }): ZipEntry
  /** Adds a whole entry at once. */
  add(name: string, data: string | Uint8Array, opts?: { store?: boolean }): void
  /** Ends the archive and closes the file; returns its size in bytes. */
  finish(): Promise<number>
  /** Closes the file without finishing (the job failed); the caller removes it. */
  abort(): void
}

export function zipToFile(path: string): ZipWriter {
  const fd = openSync(path, 'w')
  let size = 0
  let failure: Error | null = null
  let closed = false
  let finished: () => void = () => {}
  const done = new Promise<void>((resolve) => (finished = resolve))
  const close = () => {
    if (!closed) closeSync(fd)
    closed = true
  }

  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error
    else {
      writeSync(fd, chunk)
      size += chunk.length
    }
    if (final || error) finished()
  })

  const entry = (name: string, opts: { store?: boolean } = {}): ZipEntry => {
    const file = opts.store ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 })
    file.mtime = new Date()
    zip.add(file)
    return {
      write: (data) => file.push(typeof data === 'string' ? encoder.encode(data) : data, false),
      end: () => file.push(new Uint8Array(0), true),
    }
  }

  return {
    entry,
    add(name, data, opts) {
      const e = entry(name, opts)
      e.write(data)
      e.end()
    },
    async finish() {
      zip.end()
      await done
      close()
      if (failure) throw failure
      return size
    },
    abort() {
      zip.terminate()
      close()
    },
  }
}
