// ECPay's CheckMacValue (EncryptType=1, SHA-256): the signature on every form
// exchanged with ECPay in either direction. The algorithm mirrors the official
// SDK (CheckMacValueService / UrlService) step for step, because a single
// differently encoded character makes ECPay reject the order.

import { createHash, timingSafeEqual } from 'node:crypto'

export interface EcpayKeys {
  hashKey: string
  hashIV: string
}

const UNRESERVED_BYTES = new Set(
  Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!*()', (c) =>
    c.charCodeAt(0),
  ),
)
const SPACE = 0x20

/**
 * ECPay's URL encoding: PHP `urlencode` (space becomes `+`, every other UTF-8
 * byte outside `[A-Za-z0-9-_.]` becomes `%xx`), lowercased, with `! * ( )`
 * left as-is the way .NET's `HttpUtility.UrlEncode` leaves them.
 */
export function ecpayUrlEncode(s: string): string {
  let out = ''
  for (const byte of new TextEncoder().encode(s)) {
    if (UNRESERVED_BYTES.has(byte)) out += String.fromCharCode(byte)
    else if (byte === SPACE) out += '+'
    else out += '%' + byte.toString(16).padStart(2, '0')
  }
  return out.toLowerCase()
}

// PHP's strcasecmp folds ASCII letters only; locale-aware comparison would
// reorder keys such as `card4no` or `gwsr` differently from ECPay.
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

function compareKeys(a: string, b: string): number {
  const la = asciiLower(a)
  const lb = asciiLower(b)
  if (la !== lb) return la < lb ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The exact string that gets hashed: `HashKey=..&k=v..&HashIV=..` with keys
 * sorted case-insensitively, CheckMacValue left out, empty values kept, then
 * ECPay-URL-encoded and lowercased. Exposed so a MAC mismatch can be debugged
 * against ECPay's published intermediate strings.
 */
export function checkMacSource(fields: Record<string, string>, hashKey: string, hashIV: string): string {
  const pairs = Object.keys(fields)
    .filter((key) => key !== 'CheckMacValue')
    .sort(compareKeys)
    .map((key) => `${key}=${fields[key]}`)
  return ecpayUrlEncode([`HashKey=${hashKey}`, ...pairs, `HashIV=${hashIV}`].join('&'))
}

export function computeCheckMacValue(fields: Record<string, string>, hashKey: string, hashIV: string): string {
  return createHash('sha256').update(checkMacSource(fields, hashKey, hashIV)).digest('hex').toUpperCase()
}

/** Constant-time check of `fields.CheckMacValue`; the hex may arrive in either case. */
export function verifyCheckMacValue(fields: Record<string, string>, hashKey: string, hashIV: string): boolean {
  const received = fields.CheckMacValue
  if (typeof received !== 'string') return false
  const expected = Buffer.from(computeCheckMacValue(fields, hashKey, hashIV))
  const actual = Buffer.from(received.toUpperCase())
  // Only the length (always 64 for a genuine MAC) can leak here, never the content.
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Adds CheckMacValue to a field set, the last step before sending it to ECPay. */
export function signFields(fields: Record<string, string>, keys: EcpayKeys): Record<string, string> {
  return { ...fields, CheckMacValue: computeCheckMacValue(fields, keys.hashKey, keys.hashIV) }
}
