/**
 * WhatsApp record header, matched with the complete grammar so message bodies that merely
 * start with a date are not split off:
 *   ios     = LRM* "[" DATE ","? " " TIME "]" " " BODY
 *   android = LRM* DATE ","? " " TIME " - " BODY
 *   colon   = LRM* DATE ","? " " TIME ": " BODY      "13.06.18 21.25.15: Ana: hi" (seen in other parsers' tests)
 *   bare    = LRM* DATE ","? " " TIME " " BODY       "13. 6. 2018. 21:25:15 Ana: hi"
 *   DATE    = N SEP " "? N SEP " "? N "."?        SEP one of / . - (the same twice)
 * A 4-digit first number means y/m/d; a 4-digit middle one m/y/d ("06/2018/13"); otherwise the
 * year is last and the first two numbers are day and month in an order settled over the whole
 * file. The colon and bare forms say less, so the parser takes them (`header.form`) for a record
 * only with a name, or in a file of their form: elsewhere "13.06.18 21:25 we met" stays text.
 *
 * Scans sequentially and stops at the first mismatch; nothing here accepts a line terminator,
 * so reading `text[lineEnd]` ends a match safely.
 */
import { ceYear, isValidDate } from './calendar'
import { clock, scanClock } from './clock'
import { scanNumber, scanned } from './textScan'

/** Fields of the last header accepted by `scanHeader`. */
export const header = {
  year: 0,
  first: 0,
  second: 0,
  yearFirst: false,
  seconds: 0,
  bracketed: false,
  /** Which of the forms above (BRACKETED, DASHED, COLON, BARE). */
  form: 0,
  /** Index where the body (author or notice) starts. */
  body: 0,
}

export const BRACKETED = 0
export const DASHED = 1
export const COLON = 2
export const BARE = 3

export function scanHeader(text: string, start: number): boolean {
  let i = start
  let c = text.charCodeAt(i)
  while (c === 0x200e || c === 0x200f) c = text.charCodeAt(++i)
  const bracketed = c === 91 /* [ */
  if (bracketed) i++

  const n1 = scanNumber(text, i, 4)
  if (n1 < 0) return false
  const d1 = scanned.digits
  i += d1
  const separator = text.charCodeAt(i)
  if (separator !== 47 /* / */ && separator !== 46 /* . */ && separator !== 45 /* - */) return false
  if (text.charCodeAt(++i) === 32) i++
  const n2 = scanNumber(text, i, 4)
  if (n2 < 0) return false
  const d2 = scanned.digits
  if (d2 === 3) return false
  i += d2
  if (text.charCodeAt(i) !== separator) return false
  if (text.charCodeAt(++i) === 32) i++
  const n3 = scanNumber(text, i, 4)
  if (n3 < 0) return false
  const d3 = scanned.digits
  i += d3
  c = text.charCodeAt(i)
  if (c === 46) c = text.charCodeAt(++i) // "15. 1. 2024."
  if (c === 44 /* , */) c = text.charCodeAt(++i)
  if (c !== 32) return false
  i++
  // Finnish puts a word between date and time ("15.1.2024 klo 21.05"); only that word is
  // allowed, since accepting any word would split bodies such as "12/04/24 at 10:00 …".
  if (text.charCodeAt(i) === 107 && text.startsWith('klo ', i)) i += 4

  i = scanClock(text, i)
  if (i < 0) return false
  let form = BRACKETED
  c = text.charCodeAt(i)
  if (bracketed) {
    if (c !== 93 /* ] */) return false
    i++
  } else if (c === 32 && text.charCodeAt(i + 1) === 45 /* - */) {
    form = DASHED
    i += 2
  } else if (c === 58 /* : */) {
    form = COLON
    i++
  } else if (c === 32) {
    form = BARE
    // The body follows this space; it must have something in it.
    if (text.charCodeAt(i + 1) === 32 || Number.isNaN(text.charCodeAt(i + 1))) return false
  } else {
    return false
  }
  // The space before the body; a record with an empty body may end right here.
  c = text.charCodeAt(i)
  if (c === 32) i++
  else if (c !== 10 && c !== 13 && !Number.isNaN(c)) return false

  if (d1 === 4) {
    const year = ceYear(n1, 4)
    if (d2 > 2 || d3 > 2 || !isValidDate(year, n2, n3)) return false
    header.year = year
    header.yearFirst = true
  } else if (d2 === 4) {
    // Month, year, day.
    const year = ceYear(n2, 4)
    if (d1 > 2 || d3 > 2 || !isValidDate(year, n1, n3)) return false
    header.year = year
    header.yearFirst = true
  } else {
    if (d1 > 2 || (d3 !== 2 && d3 !== 4)) return false
    const year = ceYear(n3, d3)
    // Valid read one way or the other; which way is settled over the whole file.
    if (!isValidDate(year, n2, n1) && !isValidDate(year, n1, n2)) return false
    header.year = year
    header.yearFirst = false
  }
  header.first = d1 === 4 ? n2 : n1
  header.second = d1 === 4 || d2 === 4 ? n3 : n2
  header.seconds = clock.seconds
  header.bracketed = bracketed
  header.form = form
  header.body = i
  return true
}
