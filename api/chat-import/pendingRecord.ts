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
  /** The range holds CR terminators that must become "\n". */
  hasCR: boolean
  /** Blank lines after the range, only included if more text follows (trailing ones are dropped). */
  blankLines: number
}

import { cleanField, cleanRange, normalizeBreaks, type MarkFinder } from './invisibleMarks'

export function createPendingRecord(): PendingRecord {
  return { active: false, day: 0, seconds: 0, author: '', system: false, head: '', buffer: null, start: 0, end: 0, hasCR: false, blankLines: 0 }
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
  record.hasCR = false
  record.blankLines = 0
}

/** Appends a non-blank continuation line, joined with "\n" after any blank lines before it. */
export function appendLine(record: PendingRecord, buffer: string, start: number, end: number): void {
  if (record.buffer === buffer) {
    // Between the range and this line there are only line terminators.
    for (let i = record.end; i < start; i++) {
      if (buffer.charCodeAt(i) === 13) {
        record.hasCR = true
        break
      }
    }
    record.end = end
  } else {
    record.head = recordText(record) + '\n'.repeat(record.blankLines + 1)
    record.buffer = buffer
    record.start = start
    record.end = end
    record.hasCR = false
  }
  record.blankLines = 0
}

/** The text so far, line breaks normalised to "\n"; not yet cleaned. */
export function recordText(record: PendingRecord): string {
  if (record.buffer === null) return record.head
  const part = normalizeBreaks(record.buffer.slice(record.start, record.end), record.hasCR)
  return record.head === '' ? part : record.head + part
}

/** The finished text, cleaned; a plain single range is cleaned without an extra copy. */
export function cleanText(record: PendingRecord, finder: MarkFinder): string {
  if (record.buffer !== null && record.head === '') {
    return cleanRange(finder, record.buffer, record.start, record.end, record.hasCR)
  }
  return cleanField(recordText(record))
}

export function closeRecord(record: PendingRecord): void {
  record.active = false
  record.buffer = null
  record.head = ''
}
