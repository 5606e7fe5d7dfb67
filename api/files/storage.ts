// Uploaded files on disk under DATA_DIR/files, named by random ids (never by user input).
import { mkdir, writeFile, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'

export interface FileStorage {
  put(key: string, data: Uint8Array): Promise<void>
  get(key: string): Promise<Uint8Array | null>
  remove(key: string): Promise<void>
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
    async removeOwner(ownerId) {
      if (!/^[a-z0-9-]+$/i.test(ownerId)) throw new Error(`bad owner id ${ownerId}`)
      await rm(join(root, ownerId), { recursive: true, force: true })
    },
  }
}
