// Start-up seed: the built-in content rows and the locale docs, written only where missing, so a restart
// (or several API processes starting at once) never duplicates a row or overwrites an admin's edit.
import type { Sql } from '../db/database'
import type { Config } from '../config'
import { DEFINITIONS } from './definitions'
import { seedRows } from './seedRows'
import { insertContentRecord } from './store'
import { seedLocaleDocs } from './localeDocs'

export async function seedContent(sql: Sql, cfg: Pick<Config, 'freeMessageLimit' | 'freeLimitPeriod'>) {
  const rows = seedRows({ messageLimit: cfg.freeMessageLimit, period: cfg.freeLimitPeriod })
  const written = new Set(
    (await sql<{ key: string }[]>`select slug || '/' || seed_key as key from content_rows where seed_key is not null`).map((r) => r.key),
  )
  for (const def of DEFINITIONS) {
    for (const row of rows[def.slug] ?? []) {
      if (written.has(`${def.slug}/${row.key}`)) continue
      await insertContentRecord(sql, {
        slug: def.slug,
        seedKey: row.key,
        values: { ...row.values, ...row.texts?.ENUS },
        locale: row.texts ?? {},
      })
    }
  }
  await seedLocaleDocs(sql)
}
