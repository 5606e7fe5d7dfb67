// Locale docs (spec §3): the i18n texts of the site per language. The files in locales/ are the seed;
// what an admin saves wins, so an edit shows without a rebuild.
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sql } from '../db/database'
import { LANGS, type Lang } from './definitions'

export type LocaleContent = Record<string, unknown>

export interface LocaleDoc {
  id: Lang
  content: LocaleContent
  updatedAt: string
}

interface LocaleDocRecord {
  id: Lang
  content: LocaleContent
  updated_at: Date
}

export const localesDir = fileURLToPath(new URL('../../locales', import.meta.url))
const FILE_OF: Record<Lang, string> = { ENUS: 'en-US.json', ZHTW: 'zh-TW.json', ZHCN: 'zh-CN.json' }

/** Bigger than any real set of UI texts, small enough that a doc never strains a request. */
export const MAX_LOCALE_DOC_BYTES = 512 * 1024

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const toDoc = (r: LocaleDocRecord): LocaleDoc => ({ id: r.id, content: r.content, updatedAt: r.updated_at.toISOString() })

export async function localeDocs(sql: Sql): Promise<LocaleDoc[]> {
  const rows = await sql<LocaleDocRecord[]>`select id, content, updated_at from locale_docs`
  return LANGS.flatMap((lang) => rows.filter((r) => r.id === lang).map(toDoc))
}

export async function localeDoc(sql: Sql, id: Lang): Promise<LocaleDoc | null> {
  const [row] = await sql<LocaleDocRecord[]>`select id, content, updated_at from locale_docs where id = ${id}`
  return row ? toDoc(row) : null
}

export function localeContentProblem(content: unknown): string | null {
  if (!isPlainObject(content)) return 'content must be a JSON object'
  if (Buffer.byteLength(JSON.stringify(content)) > MAX_LOCALE_DOC_BYTES)
    return `content must be at most ${MAX_LOCALE_DOC_BYTES / 1024} KB`
  return null
}

/** Replaces the given docs in one transaction: a batch is saved whole or not at all. */
export async function saveLocaleDocs(sql: Sql, docs: { id: Lang; content: LocaleContent }[]) {
  await sql.begin(async (tx) => {
    for (const doc of docs) {
      await tx`
        insert into locale_docs (id, content) values (${doc.id}, ${tx.json(doc.content as never)})
        on conflict (id) do update set content = excluded.content, updated_at = now()`
    }
  })
}

/** `saved` with every key of `seed` it lacks, at any depth; saved texts are never replaced. */
export function withMissingKeys(saved: LocaleContent, seed: LocaleContent): LocaleContent {
  const out: LocaleContent = { ...saved }
  for (const [key, value] of Object.entries(seed)) {
    if (!(key in out)) out[key] = value
    else if (isPlainObject(out[key]) && isPlainObject(value)) out[key] = withMissingKeys(out[key], value)
  }
  return out
}

/** Writes a doc per language from locales/ when none is saved, and adds keys the files gained since (a new
 *  screen's texts reach a database whose docs an admin has already edited). */
export async function seedLocaleDocs(sql: Sql, dir = localesDir) {
  for (const lang of LANGS) {
    const file = join(dir, FILE_OF[lang])
    if (!existsSync(file)) continue
    const seed = JSON.parse(readFileSync(file, 'utf8')) as LocaleContent
    await sql.begin(async (tx) => {
      const [saved] = await tx<LocaleDocRecord[]>`select id, content, updated_at from locale_docs where id = ${lang} for update`
      if (!saved) {
        await tx`insert into locale_docs (id, content) values (${lang}, ${tx.json(seed as never)}) on conflict (id) do nothing`
        return
      }
      const merged = withMissingKeys(saved.content, seed)
      if (JSON.stringify(merged) !== JSON.stringify(saved.content))
        await tx`update locale_docs set content = ${tx.json(merged as never)}, updated_at = now() where id = ${lang}`
    })
  }
}
