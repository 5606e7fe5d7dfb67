// Builds the site (Astro, run on Bun because Astro 7 needs a newer Node than the machines have), then prepares
// its files for delivery: the service worker learns the build it belongs to, and every text file gets brotli
// and gzip forms beside it, which the server sends to clients that accept them (scripts/serveSite.ts).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { COMPRESS_MIN_BYTES, compressBest, compressibleFile } from '../api/http/delivery'

export const siteDir = fileURLToPath(new URL('../site', import.meta.url))

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

/** Names the worker's caches after the build's hashed assets, so a new build replaces the old caches. */
export function stampServiceWorker(clientDir: string) {
  const worker = join(clientDir, 'sw.js')
  if (!existsSync(worker)) return
  const assets = readdirSync(join(clientDir, '_astro')).sort().join('\n')
  const id = createHash('sha256').update(assets).digest('hex').slice(0, 12)
  writeFileSync(worker, readFileSync(worker, 'utf8').replaceAll('__BUILD_ID__', id))
}

/** Writes file.br and file.gz beside each text file worth compressing, when they come out smaller. */
export function precompress(clientDir: string) {
  let files = 0
  const all = filesUnder(clientDir)
  // Forms left by an earlier build would be sent in place of a file that changed since.
  for (const path of all) if (/\.(br|gz)$/.test(path) && existsSync(path.slice(0, -3))) rmSync(path)
  for (const path of all) {
    if (!compressibleFile(path) || !existsSync(path)) continue
    const data = readFileSync(path)
    if (data.length < COMPRESS_MIN_BYTES) continue
    for (const [coding, ext] of [['br', '.br'], ['gzip', '.gz']] as const) {
      const encoded = compressBest(data, coding)
      if (encoded.length < data.length) writeFileSync(path + ext, encoded)
    }
    files++
  }
  return files
}

export function buildSite() {
  const r = spawnSync(process.execPath, ['--bun', 'astro', 'build'], { cwd: siteDir, stdio: 'inherit', env: process.env })
  if (r.status !== 0) throw new Error(`site build failed (exit ${r.status})`)
  const clientDir = join(siteDir, 'dist', 'client')
  stampServiceWorker(clientDir)
  const count = precompress(clientDir)
  console.log(`Precompressed ${count} files (brotli, gzip).`)
}

if (import.meta.main) buildSite()
