// Checking and shaping content rows against their definition (spec §3, §5): pure functions, so the
// editor routes, the public read and the unit tests agree on every rule.
import type { ContentDefinition, EditableField, Lang } from './definitions'
import { LANGS } from './definitions'
import { isSafeLinkUrl } from './linkUrl'

export type ScalarValue = string | number | boolean | null
export type Translations = Record<string, string>
export type LocaleTexts = Partial<Record<Lang, Translations>>

/** A row as stored: mapping-many fields hold key lists beside the scalar fields in one object. */
export interface ContentRecord {
  id: string
  slug: string
  field_values: Record<string, ScalarValue | string[]>
  locale: LocaleTexts
  created_at: Date
  updated_at: Date
}

/** A row as the editor sees it (spec §3 "Editable content row"). */
export interface ContentRow {
  id: string
  values: Record<string, ScalarValue>
  mappings: Record<string, string[]>
  locale: Record<Lang, Translations>
  /** Per language: whether every locale-required field has a text in it. */
  translate: Record<Lang, boolean>
  createdAt: string
  updatedAt: string
}

const isMapping = (f: EditableField) => f.type === 'mapping-many'
const scalarFields = (def: ContentDefinition) => def.editableFields.filter((f) => !isMapping(f))
const mappingFields = (def: ContentDefinition) => def.editableFields.filter(isMapping)
const fieldOf = (def: ContentDefinition, name: string) => def.editableFields.find((f) => f.fieldName === name)
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Spec §5 new-row defaults: string empty, number min or 0, boolean false, select null; no mapped keys. */
export function defaultValues(def: ContentDefinition) {
  const values: Record<string, ScalarValue> = {}
  for (const f of scalarFields(def)) {
    values[f.fieldName] = f.type === 'string' ? '' : f.type === 'number' ? (f.min ?? 0) : f.type === 'boolean' ? false : null
  }
  const mappings: Record<string, string[]> = {}
  for (const f of mappingFields(def)) mappings[f.fieldName] = []
  return { values, mappings }
}

function stringProblem(f: EditableField, v: string): string | null {
  // Characters, not UTF-16 units: a Chinese or emoji text counts as the reader sees it.
  const length = [...v].length
  if (f.max !== null && length > f.max) return `${f.header} must be at most ${f.max} characters`
  if (f.min !== null && length < f.min) return `${f.header} must be at least ${f.min} characters`
  if (f.format === 'url' && !isSafeLinkUrl(v)) return `${f.header} must be a path of this site or an http(s) or mailto address`
  return null
}

function scalarProblem(f: EditableField, v: unknown): string | null {
  switch (f.type) {
    case 'string':
      return typeof v === 'string' ? stringProblem(f, v) : `${f.header} must be text`
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `${f.header} must be a number`
      // The exact texts of spec §5, which the editor shows as its toast.
      if (f.min !== null && v < f.min) return `min value ${f.min}(change not saved)`
      if (f.max !== null && v > f.max) return `max value ${f.max}(change not saved)`
      return null
    case 'boolean':
      return typeof v === 'boolean' ? null : `${f.header} must be true or false`
    case 'select':
      if (v === null) return null
      return typeof v === 'string' && f.selectOptions!.some((o) => o.key === v)
        ? null
        : `${f.header} must be one of ${f.selectOptions!.map((o) => o.key).join(', ')}`
    case 'mapping-many':
      return `${f.header} is a mapping: set it with PUT …/mappings/${f.fieldName}`
  }
}

const isEmptyValue = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '')

/** The first problem with scalar field values, or null. A new row needs every field, none empty (spec §5). */
export function valuesProblem(def: ContentDefinition, values: Record<string, unknown>, mode: 'create' | 'update'): string | null {
  for (const [name, v] of Object.entries(values)) {
    const f = fieldOf(def, name)
    if (!f) return `Unknown field ${name}`
    const problem = scalarProblem(f, v)
    if (problem) return problem
  }
  if (mode === 'create') {
    for (const f of scalarFields(def)) if (isEmptyValue(values[f.fieldName])) return `${f.header} is required`
  } else if (Object.keys(values).length === 0) return 'No field to change'
  return null
}

/** The first problem with a list of keys for a mapping-many field, or null. */
export function mappingProblem(def: ContentDefinition, fieldName: string, keys: unknown): string | null {
  const f = fieldOf(def, fieldName)
  if (!f || !isMapping(f)) return `${fieldName} is not a mapping field of ${def.slug}`
  const allowed = f.selectOptions!.map((o) => o.key)
  if (!Array.isArray(keys)) return `${f.header} must be a list of keys`
  const unknown = keys.find((k) => typeof k !== 'string' || !allowed.includes(k))
  if (unknown !== undefined) return `${String(unknown)} is not one of ${allowed.join(', ')}`
  return null
}

/** The first problem with translations for one language, or null. Only locale-required fields translate. */
export function translationProblem(def: ContentDefinition, translate: Record<string, unknown>): string | null {
  if (!def.hasLocale) return `${def.header} has no translations`
  for (const [name, v] of Object.entries(translate)) {
    const f = fieldOf(def, name)
    if (!f || !def.localeRequiredFields.includes(name)) return `${name} is not a translated field of ${def.slug}`
    if (typeof v !== 'string') return `${f.header} must be text`
    const problem = stringProblem(f, v)
    if (problem) return problem
  }
  return null
}

export function localeProblem(def: ContentDefinition, locale: Record<string, unknown>): string | null {
  for (const [lang, translate] of Object.entries(locale)) {
    if (!(LANGS as readonly string[]).includes(lang)) return `${lang} is not a language (ENUS, ZHTW, ZHCN)`
    if (!isPlainObject(translate)) return `locale.${lang} must be an object of texts`
    const problem = translationProblem(def, translate)
    if (problem) return problem
  }
  return null
}

export function mappingsProblem(def: ContentDefinition, mappings: Record<string, unknown>): string | null {
  for (const [name, keys] of Object.entries(mappings)) {
    const problem = mappingProblem(def, name, keys)
    if (problem) return problem
  }
  return null
}

/** Keys once each, in the order given. */
export const distinctKeys = (keys: string[]) => [...new Set(keys)]

export function toContentRow(def: ContentDefinition, r: ContentRecord): ContentRow {
  const values: Record<string, ScalarValue> = {}
  for (const f of scalarFields(def)) values[f.fieldName] = (r.field_values[f.fieldName] as ScalarValue) ?? null
  const mappings: Record<string, string[]> = {}
  for (const f of mappingFields(def)) mappings[f.fieldName] = (r.field_values[f.fieldName] as string[]) ?? []
  const locale = {} as Record<Lang, Translations>
  const translate = {} as Record<Lang, boolean>
  for (const lang of LANGS) {
    locale[lang] = r.locale[lang] ?? {}
    translate[lang] = def.localeRequiredFields.every((name) => !isEmptyValue(locale[lang][name]))
  }
  return {
    id: r.id,
    values,
    mappings,
    locale,
    translate,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }
}

/** A row in one language for the app, flat: { id, field: value }. Each translated field is in that language,
 *  else English, else the stored value; mapping-many fields are key lists. No definition has a field named id. */
export function resolveRow(def: ContentDefinition, r: ContentRecord, lang: Lang) {
  const row: Record<string, ScalarValue | string[]> = { id: r.id }
  for (const f of def.editableFields) row[f.fieldName] = r.field_values[f.fieldName] ?? (isMapping(f) ? [] : null)
  for (const name of def.localeRequiredFields) {
    const text = [r.locale[lang]?.[name], r.locale.ENUS?.[name]].find((t) => !isEmptyValue(t))
    if (text !== undefined) row[name] = text
  }
  return row
}
