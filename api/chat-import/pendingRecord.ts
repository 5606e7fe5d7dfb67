import { cleanField, cleanMarkedRange, cleanRange, type MarkFinder } from './fieldCleanup'
import { rangeText } from './textScan'

/**
 * The record being read: its header fields plus its text, kept as a range of the current
 * buffer for as long as possible so a multi-line message costs one substring, not one per line.
 * Text from earlier buffers (chunk boundaries) or assembled by hand lives in `head`.
 */
export interface PendingRecord {
  active: boolean
  day: number
  seconds: number
  author: string
  system: boolean
  head: string
  buffer: string | null
  start: number
  end: number
  /** The range spans a CRLF break (the reader leaves no other kind than LF). */
  crlf: boolean
  /** Blank lines after the range, only included if more text follows (trailing ones are dropped). */
  blankLines: number
  /**
   * For parsers that find bidi controls as they read (LINE): whether the range may hold one.
   * `openRecord` sets it, as the safe answer; the parser clears it when it knows better.
   */
  marked: boolean
}

export function createPendingRecord(): PendingRecord {
  return { active: false, day: 0, seconds: 0, author: '', system: false, head: '', buffer: null, start: 0, end: 0, crlf: false, blankLines: 0, marked: true }
}

export function openRecord(
  record: PendingRecord, day: number, seconds: number, author: string, system: boolean,
  buffer: string, start: number, end: number,
): void {
  record.active = true
  record.day = day
  record.seconds = seconds
  record.author = author
  record.system = system
  record.head = ''
  record.buffer = buffer
  record.start = start
  record.end = end
  record.crlf = false
  record.blankLines = 0
  record.marked = true
}

/**
 * Appends a non-blank continuation line, joined with "\n" after any blank lines before it.
 * Within one buffer the range simply grows; the breaks it spans are noted so they can be
 * normalised when it is cut.
 */
export function appendLine(record: PendingRecord, buffer: string, start: number, end: number): void {
  if (record.buffer === buffer) {
    // Between the range and this line there are only line terminators.
    for (let i = record.end; i < start; i++) {
      if (buffer.charCodeAt(i) === 13) record.crlf = true
    }
  } else {
    record.head = recordText(record) + '\n'.repeat(record.blankLines + 1)
    record.buffer = buffer
    record.start = start
    record.crlf = false
  }
  record.end = end
  record.blankLines = 0
}

/** The text so far, line breaks normalised to "\n"; not yet cleaned. */
function recordText(record: PendingRecord): string {
  if (record.buffer === null) return record.head
  const part = rangeText(record.buffer, record.start, record.end, record.crlf)
  return record.head === '' ? part : record.head + part
}

/** The finished text, cleaned; a record within one buffer is cut straight from it. */
export function cleanText(record: PendingRecord, finder: MarkFinder): string {
  if (record.buffer !== null && record.head === '') {
    return cleanRange(finder, record.buffer, record.start, record.end, record.crlf)
  }
  return cleanField(recordText(record))
}

/** `cleanText` for a parser that keeps `marked` up to date instead of using a MarkFinder. */
export function cleanTrackedText(record: PendingRecord): string {
  if (record.buffer !== null && record.head === '') {
    return cleanMarkedRange(record.buffer, record.start, record.end, record.crlf, record.marked)
  }
  return cleanField(recordText(record))
}

export function closeRecord(record: PendingRecord): void {
  record.active = false
  record.buffer = null
  record.head = ''
}
