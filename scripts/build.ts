// Builds the site (Astro, run on Bun because Astro 7 needs a newer Node than the machines have).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const siteDir = fileURLToPath(new URL('../site', import.meta.url))

export function buildSite() {
  const r = spawnSync(process.execPath, ['--bun', 'astro', 'build'], { cwd: siteDir, stdio: 'inherit', env: process.env })
  if (r.status !== 0) throw new Error(`site build failed (exit ${r.status})`)
}

if (import.meta.main) buildSite()
