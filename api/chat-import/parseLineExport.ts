/**
 * LINE plain-text export parser: mobile ("[LINE] …" header, date lines, TIME⟨TAB⟩NAME⟨TAB⟩TEXT,
 * quoted multi-line messages) and desktop (date lines, tab or single-space columns, unquoted
 * continuation lines). One pass over the lines.
 */
import { clock, scanClock } from './clock'
import { dateLine, scanDateLine } from './lineDateLine'
import { authorAt, createAuthorNames } from './authorNames'
import { createMarkFinder } from './fieldCleanup'
import { createLineReader } from './lineReader'
import { addDay, addRecord, createMessageLog, finishLog } from './messageLog'
import {
  appendLine, cleanText, closeRecord, createPendingRecord, openRecord,
} from './pendingRecord'
import { isBlank, isDigit } from './textScan'
import type { ChatExportParser, ChatParseResult } from './types'

const TITLE = '[LINE]'

/**
 * A quoted message is only a guess until its closing quote turns up; LINE caps a message at
 * 10,000 characters, so an "opening" quote still unclosed well past that was just a message
 * that happened to start with a quote.
 */
const MAX_QUOTED_CHARS = 20_000

const UNKNOWN = 0
const TABS = 1
const SPACES = 2

/** Whether text[start, end) can open a LINE export. */
export function isLineFirstLine(text: string, start: number, end: number): boolean {
  return text.startsWith(TITLE, start) || scanDateLine(text, start, end)
}

export function parseLineExport(text: string): ChatParseResult {
  const parser = createLineExportParser()
  parser.push(text)
  return parser.end()
}

export function createLineExportParser(): ChatExportParser {
  const log = createMessageLog()
  const pending = createPendingRecord()
  const names = createAuthorNames()
  const marks = createMarkFinder()
  let started = false
  let rejected = false
  let day = -1
  // Set by the first record: once tabs are seen, "TIME name …" lines are message text.
  let columns = UNKNOWN
  // A quoted message grows the pending record's range like any continuation; its lines are
  // also listed (as buffer ranges) so that a false opening quote can be replayed through the
  // same scanners, with the record cut back to its first line.
  let quoting = false
  let quotedBuffers: string[] = []
  let quotedRanges: number[] = []
  let quotedChars = 0
  let openerBuffer = ''
  let openerStart = 0
  let openerEnd = 0
  // The last quoted line ended in a quote; what follows decides whether it closed the message.
  let quoteMayClose = false
  // Lines replayed after a false opening quote may not open another one (keeps it linear).
  let replaying = false
  // Where the time ended on the line last accepted by `startsRecord`.
  let recordAfterTime = 0
  const reader = createLineReader(onLine)

  function onLine(buffer: string, start: number, end: number): void {
    if (rejected) return
    if (quoting && collectQuoted(buffer, start, end)) return
    if (start === end) {
      if (pending.active) pending.blankLines++
      return
    }
    if (!started) {
      if (isBlank(buffer, start, end)) return
      started = true
      // An export starts with its "[LINE] …" title or, on desktop, a date line.
      if (buffer.startsWith(TITLE, start)) return
      if (!scanDateLine(buffer, start, end)) {
        rejected = true
        return
      }
    }
    if (day >= 0 && startsRecord(buffer, start)) {
      readRecord(buffer, recordAfterTime, end)
    } else if (scanDateLine(buffer, start, end)) {
      finishRecord()
      day = addDay(log, dateLine.year, dateLine.first, dateLine.second, dateLine.yearFirst, dateLine.weekday)
    } else if (pending.active) {
      appendLine(pending, buffer, start, end)
    }
    // Other lines have no record to continue: the header's "Saved on: …" line, for one.
  }

  function startsRecord(buffer: string, start: number): boolean {
    const c = buffer.charCodeAt(start)
    if (!isDigit(c) && c !== 0x4e0a && c !== 0x4e0b && c !== 0x5348 && c !== 0xc624) return false
    const after = scanClock(buffer, start)
    if (after < 0) return false
    const separator = buffer.charCodeAt(after)
    if (separator !== 9 && (separator !== 32 || columns === TABS)) return false
    recordAfterTime = after
    return true
  }

  function readRecord(buffer: string, after: number, end: number): void {
    finishRecord()
    const seconds = clock.seconds
    const nameStart = after + 1
    let author = ''
    let textStart = nameStart
    if (buffer.charCodeAt(after) === 9) {
      if (columns === UNKNOWN) columns = TABS
      // TIME⟨TAB⟩NAME⟨TAB⟩TEXT; an empty NAME or a single tab marks a system line.
      let nameEnd = nameStart
      while (nameEnd < end && buffer.charCodeAt(nameEnd) !== 9) nameEnd++
      if (nameEnd < end) {
        author = authorAt(names, buffer, nameStart, nameEnd)
        textStart = nameEnd + 1
      }
    } else {
      if (columns === UNKNOWN) columns = SPACES
      // Old Windows exports separate columns with single spaces, so a name with spaces cannot
      // be told from the text; the first word is taken. Two spaces mean an empty name.
      let nameEnd = nameStart
      while (nameEnd < end && buffer.charCodeAt(nameEnd) !== 32) nameEnd++
      author = authorAt(names, buffer, nameStart, nameEnd)
      textStart = nameEnd < end ? nameEnd + 1 : end
    }
    openRecord(pending, day, seconds, author, false, buffer, textStart, end)
    if (!replaying && opensQuote(buffer, textStart, end)) {
      quoting = true
      quotedChars = 0
      quoteMayClose = false
      openerBuffer = buffer
      openerStart = textStart
      openerEnd = end
    }
  }

  /** Returns false when the line is not part of the quoted message and needs normal handling. */
  function collectQuoted(buffer: string, start: number, end: number): boolean {
    if (quoteMayClose) {
      if (start === end || (day >= 0 && startsRecord(buffer, start)) || scanDateLine(buffer, start, end)) {
        closeQuote()
        return false
      }
      quoteMayClose = false
    }
    quotedBuffers.push(buffer)
    quotedRanges.push(start, end)
    quotedChars += end - start + 1
    if (start === end) pending.blankLines++
    else appendLine(pending, buffer, start, end)
    if (endsWithQuote(buffer, start, end)) quoteMayClose = true
    else if (quotedChars > MAX_QUOTED_CHARS) abandonQuote()
    return true
  }

  function takeQuoted(): [string[], number[]] {
    const taken: [string[], number[]] = [quotedBuffers, quotedRanges]
    quoting = false
    quoteMayClose = false
    quotedBuffers = []
    quotedRanges = []
    return taken
  }

  /** Cuts the opening quote and the closing one (the last line is in the current range). */
  function closeQuote(): void {
    takeQuoted()
    const buffer = pending.buffer as string
    let close = pending.end - 1
    while (buffer.charCodeAt(close) !== 34) close--
    pending.end = close
    if (pending.head === '') pending.start++
    else pending.head = pending.head.slice(1)
  }

  function abandonQuote(): void {
    const [buffers, ranges] = takeQuoted()
    openRecord(pending, pending.day, pending.seconds, pending.author, pending.system, openerBuffer, openerStart, openerEnd)
    replaying = true
    for (let i = 0; i < buffers.length; i++) onLine(buffers[i], ranges[2 * i], ranges[2 * i + 1])
    replaying = false
  }

  function finishRecord(): void {
    if (!pending.active) return
    addRecord(log, pending.day, pending.seconds, pending.author, cleanText(pending, marks), pending.system)
    closeRecord(pending)
  }

  return {
    push: reader.push,
    end(): ChatParseResult {
      reader.end()
      if (quoting) {
        if (quoteMayClose) closeQuote()
        else abandonQuote()
      }
      finishRecord()
      if (rejected || !started) return { ok: false, error: 'NotAChatExport' }
      return finishLog(log, 'line')
    },
  }
}

/** `"…` with no other quote on the line: the first line of a quoted multi-line message. */
function opensQuote(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(start) !== 34) return false
  for (let i = start + 1; i < end; i++) if (text.charCodeAt(i) === 34) return false
  return true
}

function endsWithQuote(text: string, start: number, end: number): boolean {
  let i = end - 1
  while (i >= start && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--
  return i >= start && text.charCodeAt(i) === 34
}
