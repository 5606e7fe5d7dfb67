/**
 * LINE plain-text export parser: mobile ("[LINE] …" header, date lines, TIME⟨TAB⟩NAME⟨TAB⟩TEXT,
 * quoted multi-line messages) and desktop (date lines, tab or single-space columns, unquoted
 * continuation lines). One pass over the lines.
 */
import { clock, scanClock } from './clock'
import { dateLine, scanDateLine } from './lineDateLine'
import { authorAt, createAuthorNames, known, knownAuthorAt, type AuthorNames } from './authorNames'
import { createMarkFinder, type MarkFinder } from './fieldCleanup'
import { createLineReader, lineEnd } from './lineReader'
import { addDay, addRecord, createMessageLog, finishLog, type MessageLog } from './messageLog'
import {
  appendLine, cleanText, closeRecord, createPendingRecord, openRecord, type PendingRecord,
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

/**
 * Everything one export's parse keeps between lines. The readers below are plain functions of
 * it rather than closures made for each parser, which measured a few per cent faster.
 */
interface LineParser {
  log: MessageLog
  pending: PendingRecord
  names: AuthorNames
  marks: MarkFinder
  started: boolean
  rejected: boolean
  day: number
  /** Set by the first record: once tabs are seen, "TIME name …" lines are message text. */
  columns: number
  /**
   * A quoted message grows the pending record's range like any continuation; its lines are
   * also listed (as buffer ranges) so that a false opening quote can be replayed through the
   * same scanners, with the record cut back to its first line. The lists are kept and
   * emptied rather than replaced: a tenth of all messages are quoted.
   */
  quoting: boolean
  quotedBuffers: string[]
  quotedRanges: number[]
  quotedChars: number
  openerBuffer: string
  openerStart: number
  openerEnd: number
  /** The last quoted line ended in a quote; what follows decides whether it closed the message. */
  quoteMayClose: boolean
  /** Lines replayed after a false opening quote may not open another one (keeps it linear). */
  replaying: boolean
}

export function createLineExportParser(): ChatExportParser {
  const parser: LineParser = {
    log: createMessageLog(),
    pending: createPendingRecord(),
    names: createAuthorNames(),
    marks: createMarkFinder(),
    started: false,
    rejected: false,
    day: -1,
    columns: UNKNOWN,
    quoting: false,
    quotedBuffers: [],
    quotedRanges: [],
    quotedChars: 0,
    openerBuffer: '',
    openerStart: 0,
    openerEnd: 0,
    quoteMayClose: false,
    replaying: false,
  }
  const reader = createLineReader((buffer, start, end) => readLines(parser, buffer, start, end))
  return {
    push: reader.push,
    end(): ChatParseResult {
      reader.end()
      if (parser.quoting) {
        if (parser.quoteMayClose) closeQuote(parser)
        else abandonQuote(parser)
      }
      finishRecord(parser)
      if (parser.rejected || !parser.started) return { ok: false, error: 'NotAChatExport' }
      return finishLog(parser.log, 'line')
    },
  }
}

/** The lines of a run from the reader: walked here, a callback per line cost a few per cent. */
function readLines(p: LineParser, buffer: string, start: number, end: number): void {
  for (let pos = start; pos < end; ) {
    const lf = buffer.indexOf('\n', pos)
    readLine(p, buffer, pos, lineEnd(buffer, pos, lf))
    pos = lf + 1
  }
}

/** One line; also how the lines of an abandoned quote are read again. */
function readLine(p: LineParser, buffer: string, start: number, end: number): void {
  if (p.quoting && collectQuoted(p, buffer, start, end)) return
  // A record needs a day before it, which only a started export has.
  const afterTime = p.day < 0 || start === end ? -1 : recordTimeEnd(p, buffer, start)
  if (afterTime >= 0) readRecord(p, buffer, afterTime, end)
  else readOtherLine(p, buffer, start, end)
}

/** A line that neither starts a record nor belongs to a quoted message. */
function readOtherLine(p: LineParser, buffer: string, start: number, end: number): void {
  if (p.rejected) return
  if (start === end) {
    if (p.pending.active) p.pending.blankLines++
    return
  }
  if (!p.started) {
    if (isBlank(buffer, start, end)) return
    p.started = true
    // An export starts with its "[LINE] …" title or, on desktop, a date line.
    if (buffer.startsWith(TITLE, start)) return
    if (!scanDateLine(buffer, start, end)) {
      p.rejected = true
      return
    }
  }
  if (scanDateLine(buffer, start, end)) {
    finishRecord(p)
    p.day = addDay(p.log, dateLine.year, dateLine.first, dateLine.second, dateLine.yearFirst, dateLine.weekday)
  } else if (p.pending.active) {
    appendLine(p.pending, buffer, start, end)
  }
  // Other lines have no record to continue: the header's "Saved on: …" line, for one.
}

/** Where the time ends if the line starts a record, otherwise -1. */
function recordTimeEnd(p: LineParser, buffer: string, start: number): number {
  const c = buffer.charCodeAt(start)
  if (!isDigit(c) && c !== 0x4e0a && c !== 0x4e0b && c !== 0x5348 && c !== 0xc624) return -1
  const after = scanClock(buffer, start)
  if (after < 0) return -1
  const separator = buffer.charCodeAt(after)
  return separator === 9 || (separator === 32 && p.columns !== TABS) ? after : -1
}

function readRecord(p: LineParser, buffer: string, after: number, end: number): void {
  // openRecord below resets every field, so the previous record need not be closed first.
  if (p.pending.active) addPending(p)
  const seconds = clock.seconds
  const nameStart = after + 1
  let author = ''
  let textStart = nameStart
  if (buffer.charCodeAt(after) === 9) {
    if (p.columns === UNKNOWN) p.columns = TABS
    // TIME⟨TAB⟩NAME⟨TAB⟩TEXT; an empty NAME or a single tab marks a system line.
    const knownName = knownAuthorAt(p.names, buffer, nameStart, 9)
    if (knownName !== null) {
      author = knownName
      textStart = known.end + 1
    } else {
      let nameEnd = nameStart
      while (nameEnd < end && buffer.charCodeAt(nameEnd) !== 9) nameEnd++
      if (nameEnd < end) {
        author = authorAt(p.names, buffer, nameStart, nameEnd)
        textStart = nameEnd + 1
      }
    }
  } else {
    if (p.columns === UNKNOWN) p.columns = SPACES
    // Old Windows exports separate columns with single spaces, so a name with spaces cannot
    // be told from the text; the first word is taken. Two spaces mean an empty name.
    let nameEnd = nameStart
    while (nameEnd < end && buffer.charCodeAt(nameEnd) !== 32) nameEnd++
    author = authorAt(p.names, buffer, nameStart, nameEnd)
    textStart = nameEnd < end ? nameEnd + 1 : end
  }
  openRecord(p.pending, p.day, seconds, author, false, buffer, textStart, end)
  if (!p.replaying && opensQuote(buffer, textStart, end)) {
    p.quoting = true
    p.quotedChars = 0
    p.quoteMayClose = false
    p.openerBuffer = buffer
    p.openerStart = textStart
    p.openerEnd = end
  }
}

/** Returns false when the line is not part of the quoted message and needs normal handling. */
function collectQuoted(p: LineParser, buffer: string, start: number, end: number): boolean {
  if (p.quoteMayClose) {
    if (start === end || (p.day >= 0 && recordTimeEnd(p, buffer, start) >= 0) || scanDateLine(buffer, start, end)) {
      closeQuote(p)
      return false
    }
    p.quoteMayClose = false
  }
  p.quotedBuffers.push(buffer)
  p.quotedRanges.push(start, end)
  p.quotedChars += end - start + 1
  if (start === end) p.pending.blankLines++
  else appendLine(p.pending, buffer, start, end)
  if (endsWithQuote(buffer, start, end)) p.quoteMayClose = true
  else if (p.quotedChars > MAX_QUOTED_CHARS) abandonQuote(p)
  return true
}

function stopQuoting(p: LineParser): void {
  p.quoting = false
  p.quoteMayClose = false
}

function forgetQuoted(p: LineParser): void {
  p.quotedBuffers.length = 0
  p.quotedRanges.length = 0
}

/** Cuts the opening quote and the closing one (the last line is in the current range). */
function closeQuote(p: LineParser): void {
  stopQuoting(p)
  forgetQuoted(p)
  const pending = p.pending
  const buffer = pending.buffer as string
  let close = pending.end - 1
  while (buffer.charCodeAt(close) !== 34) close--
  pending.end = close
  if (pending.head === '') pending.start++
  else pending.head = pending.head.slice(1)
}

function abandonQuote(p: LineParser): void {
  stopQuoting(p)
  const pending = p.pending
  openRecord(pending, pending.day, pending.seconds, pending.author, pending.system, p.openerBuffer, p.openerStart, p.openerEnd)
  // Replayed lines cannot open a quote, so the lists stay as they are until forgotten.
  p.replaying = true
  const { quotedBuffers, quotedRanges } = p
  for (let i = 0; i < quotedBuffers.length; i++) readLine(p, quotedBuffers[i], quotedRanges[2 * i], quotedRanges[2 * i + 1])
  p.replaying = false
  forgetQuoted(p)
}

function finishRecord(p: LineParser): void {
  if (!p.pending.active) return
  addPending(p)
  closeRecord(p.pending)
}

function addPending(p: LineParser): void {
  const pending = p.pending
  addRecord(p.log, pending.day, pending.seconds, pending.author, cleanText(pending, p.marks), pending.system)
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
