/**
 * LINE plain-text export parser: mobile ("[LINE] …" header, date lines, TIME⟨TAB⟩NAME⟨TAB⟩TEXT,
 * quoted multi-line messages) and desktop (date lines, tab or single-space columns, unquoted
 * continuation lines). One pass over the lines.
 *
 * The lines are found by a text index (WebAssembly) a block at a time, which also reports each
 * line's tabs, a plain leading time, a name it has been shown before, and its last bidi control
 * and double quote: the common record is then read without looking at its characters here.
 * What the index leaves open (-1) is read from the text as before, so it only ever saves work.
 */
import { clock, scanClock } from './clock'
import { dateLine, scanDateLine } from './lineDateLine'
import { authorAt, cleanName, createAuthorNames, type AuthorNames } from './authorNames'
import { hasBidiMark } from './fieldCleanup'
import { resolveSpacedNames, titleName } from './lineSpacedNames'
import { createLineReader } from './lineReader'
import { addDay, addRecord, createMessageLog, finishLog, type MessageLog } from './messageLog'
import {
  appendLine, cleanTrackedText, closeRecord, createPendingRecord, openRecord, type PendingRecord,
} from './pendingRecord'
import {
  BLOCK, createTextIndex, END, indexLines, LF, loadText, MARK, nameSlotOf, QUOTE, RECORD, rememberName,
  SECONDS, SLOT, SLOT_COUNT, TAB1, TAB2, type TextIndex,
} from './textIndex'
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
  index: TextIndex
  /** Cleaned names by the index's name slot, for tab-separated records. */
  slotNames: string[]
  /** Names of space-separated records, and the cleaned form of every raw name. */
  names: AuthorNames
  /** Line facts worked out here for lines read again after a false opening quote. */
  replayFacts: Int32Array
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
  /** The export's title, after "[LINE]". */
  title: string
  /** Whether the pending record was split at a space (the name may be longer than its first word). */
  pendingSpaced: boolean
  /** Message indices of the records split at a space, split again once the file's names are known. */
  spaced: number[]
}

export function createLineExportParser(): ChatExportParser {
  const parser: LineParser = {
    log: createMessageLog(),
    pending: createPendingRecord(),
    index: createTextIndex(),
    slotNames: new Array<string>(SLOT_COUNT).fill(''),
    names: createAuthorNames(),
    replayFacts: new Int32Array(RECORD),
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
    title: '',
    pendingSpaced: false,
    spaced: [],
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
      const result = finishLog(parser.log, 'line')
      if (!result.ok || parser.spaced.length === 0) return result
      return { ...result, ...resolveSpacedNames(result.messages, parser.spaced, titleName(parser.title)) }
    },
  }
}

/** The lines of a run from the reader, indexed a block at a time. */
function readLines(p: LineParser, buffer: string, start: number, end: number): void {
  const index = p.index
  for (let base = start; base < end; ) {
    const blockEnd = Math.min(base + BLOCK, end)
    loadText(index, buffer, base, blockEnd)
    let count = indexLines(index, blockEnd - base)
    if (count === 0) {
      // A line longer than a block: the index takes it whole (every line of a run ends with LF).
      const afterLine = buffer.indexOf('\n', base) + 1
      loadText(index, buffer, base, afterLine)
      count = indexLines(index, afterLine - base)
    }
    const lines = index.lines
    let lineStart = 0
    for (let o = 0; o < count * RECORD; o += RECORD) {
      readLine(p, buffer, base + lineStart, base + lines[o + END], base, lines, o)
      lineStart = lines[o + LF] + 1
    }
    base += lineStart
  }
}

/**
 * One line, buffer[start, end), with its facts at facts[o…] (positions relative to `base`);
 * also how the lines of an abandoned quote are read again.
 */
function readLine(p: LineParser, buffer: string, start: number, end: number, base: number, facts: Int32Array, o: number): void {
  if (p.quoting && collectQuoted(p, buffer, start, end, base, facts, o)) return
  // A record needs a day before it, which only a started export has.
  if (p.day >= 0 && start !== end) {
    const seconds = facts[o + SECONDS]
    if (seconds >= 0) return readRecord(p, buffer, base + facts[o + TAB1], end, seconds, base, facts, o)
    const afterTime = recordTimeEnd(p, buffer, start)
    if (afterTime >= 0) return readRecord(p, buffer, afterTime, end, clock.seconds, base, facts, o)
  }
  readOtherLine(p, buffer, start, end, base, facts, o)
}

/** A line that neither starts a record nor belongs to a quoted message. */
function readOtherLine(p: LineParser, buffer: string, start: number, end: number, base: number, facts: Int32Array, o: number): void {
  if (p.rejected) return
  if (start === end) {
    if (p.pending.active) p.pending.blankLines++
    return
  }
  if (!p.started) {
    if (isBlank(buffer, start, end)) return
    p.started = true
    // An export starts with its "[LINE] …" title or, on desktop, a date line.
    if (buffer.startsWith(TITLE, start)) {
      p.title = buffer.slice(start + TITLE.length, end)
      return
    }
    if (!scanDateLine(buffer, start, end)) {
      p.rejected = true
      return
    }
  }
  if (scanDateLine(buffer, start, end)) {
    finishRecord(p)
    p.day = addDay(p.log, dateLine.year, dateLine.first, dateLine.second, dateLine.yearFirst, dateLine.weekday)
  } else if (p.pending.active) {
    appendText(p, buffer, start, end, base, facts, o)
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

function readRecord(
  p: LineParser, buffer: string, after: number, end: number, seconds: number, base: number, facts: Int32Array, o: number,
): void {
  // openRecord below resets every field, so the previous record need not be closed first.
  if (p.pending.active) addPending(p)
  const nameStart = after + 1
  let author = ''
  let textStart = nameStart
  if (buffer.charCodeAt(after) === 9) {
    if (p.columns === UNKNOWN) p.columns = TABS
    // TIME⟨TAB⟩NAME⟨TAB⟩TEXT; an empty NAME or a single tab marks a system line. The time has
    // no tab in it, so `after` is the line's first tab.
    const tab2 = facts[o + TAB2]
    if (tab2 >= 0) {
      const slot = facts[o + SLOT]
      author = slot >= 0 ? p.slotNames[slot] : tabbedAuthor(p, buffer, nameStart, base + tab2)
      textStart = base + tab2 + 1
    }
  } else {
    if (p.columns === UNKNOWN) p.columns = SPACES
    // Old Windows exports separate columns with single spaces, so a name with spaces cannot
    // be told from the text: the first word is taken for now, and the record split again at
    // the end by the names the file shows (lineSpacedNames). Two spaces mean an empty name.
    p.pendingSpaced = true
    let nameEnd = nameStart
    while (nameEnd < end && buffer.charCodeAt(nameEnd) !== 32) nameEnd++
    author = authorAt(p.names, buffer, nameStart, nameEnd)
    textStart = nameEnd < end ? nameEnd + 1 : end
  }
  const pending = p.pending
  openRecord(pending, p.day, seconds, author, false, buffer, textStart, end)
  pending.marked = base + facts[o + MARK] >= textStart
  // `"…` with no other quote on the line: the first line of a quoted multi-line message.
  if (!p.replaying && buffer.charCodeAt(textStart) === 34 && base + facts[o + QUOTE] === textStart) {
    p.quoting = true
    p.quotedChars = 0
    p.quoteMayClose = false
    p.openerBuffer = buffer
    p.openerStart = textStart
    p.openerEnd = end
  }
}

/** A name the index did not know: cleaned, and shown to the index for the lines after it. */
function tabbedAuthor(p: LineParser, buffer: string, start: number, end: number): string {
  const raw = buffer.slice(start, end)
  const clean = cleanName(p.names, raw)
  if (rememberName(p.index, raw)) p.slotNames[nameSlotOf(raw)] = clean
  return clean
}

/** A continuation line of the pending record. */
function appendText(p: LineParser, buffer: string, start: number, end: number, base: number, facts: Int32Array, o: number): void {
  appendLine(p.pending, buffer, start, end)
  if (base + facts[o + MARK] >= start) p.pending.marked = true
}

/** Returns false when the line is not part of the quoted message and needs normal handling. */
function collectQuoted(p: LineParser, buffer: string, start: number, end: number, base: number, facts: Int32Array, o: number): boolean {
  if (p.quoteMayClose) {
    const startsRecord = p.day >= 0 && (facts[o + SECONDS] >= 0 || recordTimeEnd(p, buffer, start) >= 0)
    if (start === end || startsRecord || scanDateLine(buffer, start, end)) {
      closeQuote(p)
      return false
    }
    p.quoteMayClose = false
  }
  p.quotedBuffers.push(buffer)
  p.quotedRanges.push(start, end)
  p.quotedChars += end - start + 1
  if (start === end) p.pending.blankLines++
  else appendText(p, buffer, start, end, base, facts, o)
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
  const { quotedBuffers, quotedRanges, replayFacts } = p
  for (let i = 0; i < quotedBuffers.length; i++) {
    const [buffer, start, end] = [quotedBuffers[i], quotedRanges[2 * i], quotedRanges[2 * i + 1]]
    describeLine(buffer, start, end, replayFacts)
    readLine(p, buffer, start, end, 0, replayFacts, 0)
  }
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
  if (p.pendingSpaced) {
    p.spaced.push(p.log.messages.length)
    p.pendingSpaced = false
  }
  addRecord(p.log, pending.day, pending.seconds, pending.author, cleanTrackedText(pending), pending.system)
}

/**
 * The facts the index gives, worked out here for one line (positions from the buffer start),
 * leaving what the readers work out themselves at -1; a bidi control is only said to be at
 * the line's end, which is after wherever its text starts. Every search stays inside the line:
 * a search of the buffer could run to its end for each replayed line.
 */
function describeLine(buffer: string, start: number, end: number, facts: Int32Array): void {
  const tab1 = unitIn(buffer, 9, start, end)
  facts[TAB1] = tab1
  facts[TAB2] = tab1 < 0 ? -1 : unitIn(buffer, 9, tab1 + 1, end)
  facts[SECONDS] = -1
  facts[SLOT] = -1
  facts[MARK] = hasBidiMark(buffer.slice(start, end)) ? end : -1
  let quote = end - 1
  while (quote >= start && buffer.charCodeAt(quote) !== 34) quote--
  facts[QUOTE] = quote >= start ? quote : -1
}

/** The first `unit` in buffer[from, end), or -1. */
function unitIn(buffer: string, unit: number, from: number, end: number): number {
  for (let i = from; i < end; i++) if (buffer.charCodeAt(i) === unit) return i
  return -1
}

function endsWithQuote(text: string, start: number, end: number): boolean {
  let i = end - 1
  while (i >= start && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--
  return i >= start && text.charCodeAt(i) === 34
}
