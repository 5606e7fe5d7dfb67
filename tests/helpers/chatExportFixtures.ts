// Where the chat-export fixtures are: the copy kept in this repository, plus the shared fixture folder of the
// workplace when there is one (found beside the repository or any folder above it, or named by
// CHAT_EXPORT_FIXTURES), so fixtures added there are picked up without a copy. A name in both uses the shared one.
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function sharedFolder(): string | null {
  if (process.env.CHAT_EXPORT_FIXTURES) return resolve(repoRoot, process.env.CHAT_EXPORT_FIXTURES)
  for (let dir = repoRoot; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared', 'fixtures', 'chat-exports')
    if (existsSync(candidate)) return candidate
  }
  return null
}

/** Fixture file name → its full path, for every NAME.txt that has a NAME.txt.expected.json. */
export function chatExportFixtures(): Map<string, string> {
  const found = new Map<string, string>()
  for (const folder of [join(repoRoot, 'tests', 'fixtures', 'chat-exports'), sharedFolder()]) {
    if (!folder || !existsSync(folder)) continue
    const names = new Set(readdirSync(folder))
    for (const name of names) if (name.endsWith('.txt') && names.has(`${name}.expected.json`)) found.set(name, join(folder, name))
  }
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)))
}
