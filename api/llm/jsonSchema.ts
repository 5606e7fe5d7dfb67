// The part of JSON Schema our prompts use (types, properties, required, items, enum, const, anyOf/oneOf,
// local $ref): enough to check a model's answer and to build a conforming answer without a model.
import { ModelFailure, type ChatMessage } from './provider'

interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  enum?: unknown[]
  const?: unknown
  default?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  $ref?: string
  minimum?: number
  maximum?: number
  minItems?: number
  maxLength?: number
}

function resolver(root: Schema) {
  return function resolve(schema: Schema): Schema {
    if (!schema.$ref?.startsWith('#/')) return schema
    let target: unknown = root
    for (const part of schema.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[part]
    if (!target || typeof target !== 'object') throw new Error(`JSON schema reference ${schema.$ref} does not resolve`)
    return resolve(target as Schema)
  }
}

function mainType(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0]
  if (schema.type) return schema.type
  if (schema.properties) return 'object'
  if (schema.items) return 'array'
  return undefined
}

/**
 * A value that satisfies `schema`. Strings come from `text(path)` (the property names leading to the string),
 * so the caller decides what each field says; everything else takes the least surprising value.
 */
export function sampleFromSchema(schema: object, text: (path: string[]) => string): unknown {
  const resolve = resolver(schema as Schema)
  const sample = (raw: Schema, path: string[]): unknown => {
    const s = resolve(raw)
    if (s.const !== undefined) return s.const
    if (s.default !== undefined) return s.default
    if (s.enum?.length) return s.enum[0]
    const alternatives = s.anyOf ?? s.oneOf
    if (alternatives?.length) return sample(alternatives[0], path)
    switch (mainType(s)) {
      case 'object':
        return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, sub]) => [key, sample(sub, [...path, key])]))
      case 'array':
        return Array.from({ length: s.minItems ?? 0 }, (_, i) => sample(s.items ?? {}, [...path, String(i)]))
      case 'number':
      case 'integer':
        return Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? 0, 0))
      case 'boolean':
        return false
      case 'null':
        return null
      default: {
        const value = text(path)
        return s.maxLength === undefined ? value : Array.from(value).slice(0, s.maxLength).join('')
      }
    }
  }
  return sample(schema as Schema, [])
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function fitsType(value: unknown, type: string): boolean {
  const actual = typeOf(value)
  return actual === type || (type === 'number' && actual === 'integer')
}

/** The first way `value` breaks `schema` (as "$.path: problem"), or null when it fits. */
export function schemaMismatch(value: unknown, schema: object): string | null {
  const resolve = resolver(schema as Schema)
  const check = (v: unknown, raw: Schema, at: string): string | null => {
    const s = resolve(raw)
    if (s.const !== undefined && JSON.stringify(v) !== JSON.stringify(s.const)) return `${at}: expected ${JSON.stringify(s.const)}`
    if (s.enum && !s.enum.some((option) => JSON.stringify(option) === JSON.stringify(v))) {
      return `${at}: expected one of ${JSON.stringify(s.enum)}`
    }
    const alternatives = s.anyOf ?? s.oneOf
    if (alternatives && !alternatives.some((alt) => check(v, alt, at) === null)) return `${at}: matches none of the alternatives`
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
    if (types.length && !types.some((t) => fitsType(v, t))) return `${at}: expected ${types.join(' or ')}, got ${typeOf(v)}`
    if (typeOf(v) === 'object') {
      const record = v as Record<string, unknown>
      const missing = (s.required ?? []).find((key) => !(key in record))
      if (missing) return `${at}: missing "${missing}"`
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        if (key in record) {
          const problem = check(record[key], sub, `${at}.${key}`)
          if (problem) return problem
        }
      }
    }
    if (Array.isArray(v) && s.items) {
      for (const [i, item] of v.entries()) {
        const problem = check(item, s.items, `${at}[${i}]`)
        if (problem) return problem
      }
    }
    return null
  }
  return check(value, schema as Schema, '$')
}

/** Parses a model's JSON answer (tolerating a Markdown code fence around it) and checks it against the schema. */
export function parseJsonReply<T>(text: string, schema: object): T {
  const unfenced = text.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i, '$1')
  let value: unknown
  try {
    value = JSON.parse(unfenced)
  } catch {
    throw new ModelFailure(`The model did not answer with valid JSON: ${JSON.stringify(text.slice(0, 200))}`)
  }
  const problem = schemaMismatch(value, schema)
  if (problem) throw new ModelFailure(`The model's JSON does not fit the schema (${problem})`)
  return value as T
}

/**
 * Spelled out in the prompt too: backends constrain the syntax, but the model writes better values when it sees
 * the fields. Merged into the leading system message because some chat templates reject a second one.
 */
export function withJsonInstruction(messages: ChatMessage[], schema: object): ChatMessage[] {
  const instruction = `Answer with a single JSON object, and nothing else, that matches this JSON schema:\n${JSON.stringify(schema)}`
  const [first, ...rest] = messages
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${instruction}` }, ...rest]
  return [{ role: 'system', content: instruction }, ...messages]
}
