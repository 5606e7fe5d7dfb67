/**
 * Field clean-up shared by both platforms: bidi controls are removed (the exports sprinkle LRM
 * before names and notices, LRE/PDF around phone numbers; nobody typed them), line breaks
 * become "\n" and trailing whitespace goes.
 */
import { rangeText } from './textScan'

const BIDI_MARK = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const MARKS = ['\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']
// An int32 like every other position (see lineReader).
const NOT_FOUND = 0x7fffffff

/** The characters String.prototype.trimEnd removes; checked first so most fields skip the call. */
function isWhiteSpace(code: number): boolean {
  return (
    code <= 32
      ? code === 32 || (code >= 9 && code <= 13)
      : code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
        code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  )
}

/** Removes bidi controls anywhere and whitespace (including trailing empty lines) at the end. */
export function cleanField(value: string): string {
  if (BIDI_MARK.test(value)) value = value.replace(BIDI_MARKS, '')
  return value.length > 0 && isWhiteSpace(value.charCodeAt(value.length - 1)) ? value.trimEnd() : value
}

/**
 * Answers "does buffer[start, end) hold a bidi control?" for ranges that move forward through
 * one buffer, keeping the next position of each mark and the nearest of them. Each mark's
 * native indexOf then passes over the buffer once, far cheaper than a regex per field.
 */
export interface MarkFinder {
  buffer: string | null
  /** Start of the last query; the cached positions are only valid from there on. */
  from: number
  next: number[]
  nearest: number
}

export function createMarkFinder(): MarkFinder {
  return { buffer: null, from: 0, next: MARKS.map(() => -1), nearest: -1 }
}

function hasMark(finder: MarkFinder, buffer: string, start: number, end: number): boolean {
  if (finder.buffer !== buffer || start < finder.from) {
    finder.buffer = buffer
    finder.next.fill(-1)
    finder.nearest = -1
  }
  finder.from = start
  if (finder.nearest < start) {
    const next = finder.next
    let nearest = NOT_FOUND
    for (let k = 0; k < next.length; k++) {
      let at = next[k]
      if (at < start) {
        at = buffer.indexOf(MARKS[k], start)
        next[k] = at = at < 0 ? NOT_FOUND : at
      }
      if (at < nearest) nearest = at
    }
    finder.nearest = nearest
  }
  return finder.nearest < end
}

/**
 * `cleanField` of rangeText(buffer, start, end, breaks). Looks at characters in the buffer,
 * not in a slice: a fresh slice is a lazy substring in JavaScriptCore and reading from it is a
 * slow call.
 */
export function cleanRange(finder: MarkFinder, buffer: string, start: number, end: number, breaks: number): string {
  if (hasMark(finder, buffer, start, end)) return cleanField(rangeText(buffer, start, end, breaks))
  while (end > start && isWhiteSpace(buffer.charCodeAt(end - 1))) end--
  return rangeText(buffer, start, end, breaks)
}
