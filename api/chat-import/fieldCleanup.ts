/**
 * Field clean-up shared by both platforms: bidi controls are removed (the exports sprinkle LRM
 * before names and notices, LRE/PDF around phone numbers; nobody typed them), line breaks
 * become "\n" and trailing whitespace goes.
 */
import { BLOCK, createTextIndex, findMark, loadText, type TextIndex } from './textIndex'
import { rangeText } from './textScan'

const BIDI_MARK = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** The characters String.prototype.trimEnd removes; checked first so most fields skip the call. */
function isWhiteSpace(code: number): boolean {
  return (
    code <= 32
      ? code === 32 || (code >= 9 && code <= 13)
      : code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
        code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  )
}

export function hasBidiMark(value: string): boolean {
  return BIDI_MARK.test(value)
}

/** Removes bidi controls anywhere and whitespace (including trailing empty lines) at the end. */
export function cleanField(value: string): string {
  if (hasBidiMark(value)) value = value.replace(BIDI_MARKS, '')
  return value.length > 0 && isWhiteSpace(value.charCodeAt(value.length - 1)) ? value.trimEnd() : value
}

/**
 * Answers "does buffer[start, end) hold a bidi control?" for ranges that move forward through
 * one buffer. The buffer is copied to a text index a block at a time and each block is
 * searched once; a control found is remembered until a range passes it.
 */
export interface MarkFinder {
  /** Made on the first search: most fields need none. */
  index: TextIndex | null
  buffer: string | null
  /** Start of the last query; what is known holds from there on. */
  from: number
  /** The part of the buffer loaded into the index. */
  blockStart: number
  blockEnd: number
  /** The first control at or after `from`, or `blockEnd` when the rest of the block has none. */
  next: number
}

export function createMarkFinder(): MarkFinder {
  return { index: null, buffer: null, from: 0, blockStart: 0, blockEnd: 0, next: 0 }
}

function hasMark(finder: MarkFinder, buffer: string, start: number, end: number): boolean {
  if (finder.buffer !== buffer || start < finder.from) {
    finder.buffer = buffer
    finder.blockStart = finder.blockEnd = finder.next = start
  }
  finder.from = start
  for (;;) {
    const next = finder.next
    if (next >= end) return false
    if (next >= start && next < finder.blockEnd) return true
    // A control before this range, to look on from in the same block, or the block is used up.
    if (next < start && start < finder.blockEnd) {
      finder.next = finder.blockStart + findMark(finder.index as TextIndex, start - finder.blockStart, finder.blockEnd - finder.blockStart)
    } else {
      loadFrom(finder, buffer, Math.max(start, finder.blockEnd))
    }
  }
}

function loadFrom(finder: MarkFinder, buffer: string, start: number): void {
  const end = Math.min(start + BLOCK, buffer.length)
  finder.index ??= createTextIndex()
  loadText(finder.index, buffer, start, end)
  finder.blockStart = start
  finder.blockEnd = end
  finder.next = start + findMark(finder.index, 0, end - start)
}

/**
 * `cleanField` of rangeText(buffer, start, end, crlf). Looks at characters in the buffer,
 * not in a slice: a fresh slice is a lazy substring in JavaScriptCore and reading from it is a
 * slow call.
 */
export function cleanRange(finder: MarkFinder, buffer: string, start: number, end: number, crlf: boolean): string {
  return cleanMarkedRange(buffer, start, end, crlf, hasMark(finder, buffer, start, end))
}

/** The same, for a caller that knows whether the range may hold a bidi control (`marked`). */
export function cleanMarkedRange(buffer: string, start: number, end: number, crlf: boolean, marked: boolean): string {
  if (marked) return cleanField(rangeText(buffer, start, end, crlf))
  while (end > start && isWhiteSpace(buffer.charCodeAt(end - 1))) end--
  return rangeText(buffer, start, end, crlf)
}
