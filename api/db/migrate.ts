// Numbered migrations from sql/, each in its own transaction, recorded so a rerun is a no-op.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sql } from './database'

export const migrationsDir = fileURLToPath(new URL('../../sql', import.meta.url))

export async function migrate(sql: Sql, dir = migrationsDir): Promise<string[]> {
  // Under the same lock as the migrations: "if not exists" alone still races when processes start together.
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7715001)`
    await tx`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`
  })
  const done = new Set((await sql<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name))
  const applied: string[] = []
  for (const name of readdirSync(dir).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort()) {
    if (done.has(name)) continue
    const text = readFileSync(join(dir, name), 'utf8')
    const ran = await sql.begin(async (tx) => {
      // Several API processes may start at once; the lock makes exactly one apply each file.
      await tx`select pg_advisory_xact_lock(7715001)`
      const [row] = await tx`select 1 from schema_migrations where name = ${name}`
      if (row) return false
      await tx.unsafe(text)
      await tx`insert into schema_migrations (name) values (${name})`
      return true
    })
    if (ran) applied.push(name)
  }
  return applied
}
