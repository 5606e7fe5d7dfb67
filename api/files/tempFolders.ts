// Folders a process makes in the system's temporary directory while it builds or reads a large file (an archive being
// written, an export fetched from the bucket for analysis). They are removed when the work ends; a process killed
// in the middle leaves them, whole archives among them. Any process on the machine may remove the folders of a
// prefix in which nothing has been written for far longer than any such work lasts.
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The latest write to the folder or to a file in it. */
async function lastWrite(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null)
  if (!info?.isDirectory()) return null
  let latest = info.mtimeMs
  for (const name of await readdir(path).catch(() => [] as string[])) {
    const inner = await stat(join(path, name)).catch(() => null)
    if (inner) latest = Math.max(latest, inner.mtimeMs)
  }
  return latest
}

const CLAIMED = '.removing-'

/**
 * Removes the folders of `prefix` in the temporary directory in which nothing was written for `idleMs`. Each is
 * first renamed to a name of this sweep (its claim), so of several sweeps at once exactly one removes and counts
 * it; a claim left by a sweep that died half-way is taken over once it is as old (a rename sets the change time).
 * Returns how many this sweep removed.
 */
export async function sweepTempFolders(prefix: string, idleMs: number, now = new Date(), root = tmpdir()): Promise<number> {
  let removed = 0
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue
    const path = join(root, name)
    const since = name.includes(CLAIMED) ? (await stat(path).catch(() => null))?.ctimeMs : await lastWrite(path)
    if (since == null || now.getTime() - since < idleMs) continue
    const claimed = `${join(root, name.split(CLAIMED)[0])}${CLAIMED}${crypto.randomUUID()}`
    try {
      await rename(path, claimed)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw e
    }
    await rm(claimed, { recursive: true, force: true })
    removed++
  }
  return removed
}
