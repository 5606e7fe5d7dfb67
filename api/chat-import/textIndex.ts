/**
 * The WebAssembly scans of textIndex.wat: blocks of decoded text are copied into a module
 * instance's memory and searched there eight UTF-16 units per step, which JavaScript cannot
 * do (a loop over charCodeAt reads one unit per step; the LINE parser spent about half its
 * time finding line ends, times, tabs and names that way).
 *
 * Each parser has its own instance, so nothing of one parse (its text, the names it learned)
 * is shared with another or kept after it. Memory is a few hundred kilobytes: a block of text,
 * the line records of the last block and the names seen; it grows only for a line longer than
 * a block.
 */
import { readFileSync } from 'node:fs'

/** UTF-16 units of text per block. */
export const BLOCK = 1 << 16
/** Line records written per `indexLines` call at most. */
export const MAX_LINES = 2048

/** Fields of a line record (Int32Array offsets); positions count units from the block start, -1 = none. */
export const LF = 0
/** Where the line ends before its break (a CR before the LF is part of the break). */
export const END = 1
/**
 * The first and second tab, looked for only on lines that can start a record (a digit or the
 * first character of a period word such as 上午 comes first); -1 on other lines.
 */
export const TAB1 = 2
export const TAB2 = 3
/** Seconds of a leading "H:MM" / "HH:MM" (hours 0–23) directly followed by a tab, else -1. */
export const SECONDS = 4
/** The name slot holding exactly the units between the two tabs, else -1. */
export const SLOT = 5
/** The last bidi control of the line. */
export const MARK = 6
/** The last double quote of the line. */
export const QUOTE = 7
export const RECORD = 8

// Byte offsets of the areas in the module's memory (see textIndex.wat).
const SLOTS_AT = 0
/** Name slots (must match textIndex.wat). */
export const SLOT_COUNT = 512
const NAMES_AT = 4096
const NAMES_END = 32768
const LINES_AT = 32768
const TEXT_AT = 98304
const PAGE = 65536
/** Zero bytes after a block, so the last eight-unit step reads nothing of an older block. */
const PADDING = 16

interface Exports {
  memory: WebAssembly.Memory
  findMark(from: number, to: number): number
  indexLines(length: number): number
}

export interface TextIndex {
  exports: Exports
  /** Views of the memory, made again when it grows (so read them after `loadText`). */
  bytes: Buffer
  /** The line records of the last `indexLines`, RECORD numbers each. */
  lines: Int32Array
  slots: Int32Array
  /** Next free byte of the names area. */
  namesEnd: number
}

let compiled: WebAssembly.Module | null = null

export function createTextIndex(): TextIndex {
  compiled ??= new WebAssembly.Module(readFileSync(new URL('./textIndex.wasm', import.meta.url)))
  const exports = new WebAssembly.Instance(compiled).exports as unknown as Exports
  const index: TextIndex = {
    exports,
    bytes: Buffer.alloc(0),
    lines: new Int32Array(0),
    slots: new Int32Array(0),
    namesEnd: NAMES_AT,
  }
  makeViews(index)
  forgetNames(index)
  return index
}

function makeViews(index: TextIndex): void {
  const buffer = index.exports.memory.buffer
  index.bytes = Buffer.from(buffer)
  index.lines = new Int32Array(buffer, LINES_AT, MAX_LINES * RECORD)
  index.slots = new Int32Array(buffer, SLOTS_AT, SLOT_COUNT * 2)
}

/**
 * Copies text[start, end) into the block, growing the memory if it does not fit. Positions
 * the scans report are then relative to `start`.
 */
export function loadText(index: TextIndex, text: string, start: number, end: number): void {
  const needed = TEXT_AT + 2 * (end - start) + PADDING
  const memory = index.exports.memory
  if (needed > memory.buffer.byteLength) {
    memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE))
    makeViews(index)
  }
  const written = index.bytes.write(text.slice(start, end), TEXT_AT, 'utf16le')
  index.bytes.fill(0, TEXT_AT + written, TEXT_AT + written + PADDING)
}

/** The first bidi control in units [from, to) of the block, or `to`. */
export function findMark(index: TextIndex, from: number, to: number): number {
  return index.exports.findMark(from, to)
}

/**
 * Writes a record for each whole line (ending with LF) of the first `length` units of the
 * block into `index.lines`, at most MAX_LINES; returns how many.
 */
export function indexLines(index: TextIndex, length: number): number {
  return index.exports.indexLines(length)
}

/** The slot a name is kept in (must match $slotOf in textIndex.wat). */
export function nameSlotOf(name: string): number {
  const length = name.length
  const first = length > 0 ? name.charCodeAt(0) : 0
  const last = length > 0 ? name.charCodeAt(length - 1) : 0
  return (first * 31 + last + length * 7) & (SLOT_COUNT - 1)
}

/**
 * Puts `name` (raw, as written between the tabs) in slot nameSlotOf(name), replacing what was
 * there, so `indexLines` reports the slot for its later occurrences. False, with the slot
 * unchanged, for a name too long to keep.
 */
export function rememberName(index: TextIndex, name: string): boolean {
  const size = 2 * name.length
  if (size > NAMES_END - NAMES_AT) return false
  if (index.namesEnd + size > NAMES_END) forgetNames(index)
  index.bytes.write(name, index.namesEnd, 'utf16le')
  const slot = nameSlotOf(name)
  index.slots[2 * slot] = index.namesEnd
  index.slots[2 * slot + 1] = name.length
  index.namesEnd += size
  return true
}

/** Empties every slot (length -1) and the names area. */
function forgetNames(index: TextIndex): void {
  for (let slot = 0; slot < SLOT_COUNT; slot++) index.slots[2 * slot + 1] = -1
  index.namesEnd = NAMES_AT
}
