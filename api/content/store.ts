// The content_rows table. Partial writes merge into the stored JSON in one statement, so two admins
// editing different fields of one row never undo each other.
import type { Sql } from '../db/database'
import type { Lang } from './definitions'
import type { ContentRecord, LocaleTexts, ScalarValue, Translations } from './values'

type StoredValues = Record<string, ScalarValue | string[]>

export function contentRecords(sql: Sql, slug: string): Promise<ContentRecord[]> {
  return sql<ContentRecord[]>`
    select id, slug, field_values, locale, created_at, updated_at from content_rows
    where slug = ${slug} order by created_at, id`
}

export async function insertContentRecord(
  sql: Sql,
  row: { slug: string; values: StoredValues; locale: LocaleTexts; seedKey?: string },
): Promise<ContentRecord | null> {
  const [created] = await sql<ContentRecord[]>`
    insert into content_rows (slug, seed_key, field_values, locale)
    values (${row.slug}, ${row.seedKey ?? null}, ${sql.json(row.values)}, ${sql.json(row.locale)})
    on conflict (slug, seed_key) do nothing
    returning id, slug, field_values, locale, created_at, updated_at`
  return created ?? null
}

/** Sets the given fields of a row of `slug`; null when there is no such row. */
export async function mergeContentValues(sql: Sql, slug: string, id: string, values: StoredValues): Promise<ContentRecord | null> {
  const [row] = await sql<ContentRecord[]>`
    update content_rows set field_values = field_values || ${sql.json(values)}, updated_at = now()
    where id = ${id} and slug = ${slug}
    returning id, slug, field_values, locale, created_at, updated_at`
  return row ?? null
}

/** Sets the given translations of one language of a row; null when there is no such row. */
export async function mergeContentTranslations(sql: Sql, id: string, lang: Lang, translate: Translations): Promise<ContentRecord | null> {
  const [row] = await sql<ContentRecord[]>`
    update content_rows
    set locale = jsonb_set(locale, array[${lang}::text], coalesce(locale -> ${lang}, '{}'::jsonb) || ${sql.json(translate)}),
        updated_at = now()
    where id = ${id}
    returning id, slug, field_values, locale, created_at, updated_at`
  return row ?? null
}

export async function contentRecordById(sql: Sql, id: string): Promise<ContentRecord | null> {
  const [row] = await sql<ContentRecord[]>`
    select id, slug, field_values, locale, created_at, updated_at from content_rows where id = ${id}`
  return row ?? null
}
