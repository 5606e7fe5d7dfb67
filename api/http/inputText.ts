// What text the product accepts, decided once for every string that reaches a handler (body, query, path and
// multipart fields, file names, object keys): line breaks become \n, other C0 control characters (NUL among them)
// are dropped — PostgreSQL cannot store NUL and no person types the others — and a string holding half of a
// UTF-16 surrogate pair is refused, since it is not Unicode text at all and cannot be stored or shown.
import { badRequest } from './errors'

/** Deeper than any request the API takes; deeper input is refused before anything walks it. */
export const MAX_DEPTH = 32

// Tab (\x09) and newline (\x0A) stay; CR is turned into a newline first.
const CONTROL = /[\x00-\x08\x0B-\x1F]/g
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The accepted form of one string; a 400 naming the field when it is not Unicode text. */
export function cleanText(s: string, field: string): string {
  if (LONE_SURROGATE.test(s)) throw badRequest(`${field}: contains invalid text (an unpaired UTF-16 surrogate)`)
  if (!/[\x00-\x1F]/.test(s)) return s
  return s.replace(/\r\n?/g, '\n').replace(CONTROL, '')
}

const fieldPath = (parent: string, key: string | number) => (parent ? `${parent}.${key}` : String(key))

/**
 * The accepted form of a request's parsed input: strings cleaned everywhere inside arrays and plain objects,
 * files renamed when their name needed cleaning. Returns the same value when nothing changed.
 */
export function cleanInput(value: unknown, field = '', depth = 0): unknown {
  if (typeof value === 'string') return cleanText(value, field || 'value')
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) throw badRequest(`${field || 'body'}: nested more than ${MAX_DEPTH} levels deep`)
  if (value instanceof File) {
    const name = cleanText(value.name, field ? `${field} (file name)` : 'file name')
    return name === value.name ? value : new File([value], name, { type: value.type, lastModified: value.lastModified })
  }
  if (value instanceof Blob) return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = cleanInput(value[i], fieldPath(field, i), depth + 1)
    return value
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const cleanKey = cleanText(key, fieldPath(field, key))
    const cleaned = cleanInput(record[key], fieldPath(field, cleanKey), depth + 1)
    if (cleanKey !== key) {
      delete record[key]
      // A key that only differed by control characters never overwrites a real one.
      if (!(cleanKey in record)) record[cleanKey] = cleaned
    } else if (cleaned !== record[key]) record[key] = cleaned
  }
  return record
}
