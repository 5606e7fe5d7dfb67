/**
 * Splits decoded text into lines across arbitrary chunk boundaries.
 *
 * The first line break decides the style: a lone CR means classic CR-only text, whose breaks
 * (CR, LF or CRLF) are rewritten to LF as it arrives; otherwise lines end at LF and a CR right
 * before it belongs to the break. Either way every line then ends at an LF, one native search
 * per line.
 *
 * Whole lines are handed over in runs, `onLines(buffer, start, end)`: buffer[start, end) is
 * one or more lines, each ending with its LF, so a parser can walk them in its own loop (a
 * call per line into a parser costs a measurable share of a LINE parse) and take one substring
 * per record instead of one per line. A run is a range of a pushed chunk, or a line that was
 * split between chunks, joined. Only the unfinished last line of a chunk is kept between
 * pushes, never the whole text.
 */
/** buffer[start, end) is one or more whole lines, each ending with its LF. */
export type LinesHandler = (buffer: string, start: number, end: number) => void
/** buffer[start, end) is one line without its break. */
export type LineHandler = (buffer: string, start: number, end: number) => void

export interface LineReader {
  push(chunk: string): void
  end(): void
}

const UNKNOWN = 0
const LF_ENDINGS = 1
const CR_ENDINGS = 2

export function createLineReader(onLines: LinesHandler): LineReader {
  // Pieces of a line whose terminator has not arrived yet; joined once it does, so a long
  // line split over many chunks is copied once rather than once per chunk.
  let tail: string[] = []
  let atFileStart = true
  let style = UNKNOWN
  // CR-only text: a chunk that ended in CR, so an LF at the start of the next one belongs to
  // the same CRLF.
  let skipLeadingLF = false

  function push(chunk: string): void {
    let from = 0
    if (atFileStart && chunk.length > 0) {
      atFileStart = false
      if (chunk.charCodeAt(0) === 0xfeff) from = 1
    }
    if (skipLeadingLF && chunk.length > from) {
      skipLeadingLF = false
      if (chunk.charCodeAt(from) === 10) from++
    }
    if (style === UNKNOWN) {
      // Until the first break is seen everything is one unfinished line; decide on all of it.
      if (tail.length > 0) {
        tail.push(chunk.slice(from))
        chunk = tail.join('')
        tail = []
        from = 0
      }
      style = lineBreakStyle(chunk, from)
      if (style === UNKNOWN) {
        if (chunk.length > from) tail.push(chunk.slice(from))
        return
      }
    }
    if (style === CR_ENDINGS) {
      skipLeadingLF = chunk.charCodeAt(chunk.length - 1) === 13
      chunk = chunk.slice(from).replace(CR_BREAK, '\n')
      from = 0
    }
    if (chunk.lastIndexOf('\n') < from) {
      if (chunk.length > from) tail.push(from === 0 ? chunk : chunk.slice(from))
      return
    }
    let pos = from
    if (tail.length > 0) {
      // The carried-over line is finished on its own: joining it to the whole chunk would copy
      // every chunk once more.
      const lf = chunk.indexOf('\n', from)
      tail.push(chunk.slice(from, lf + 1))
      const line = tail.join('')
      tail = []
      onLines(line, 0, line.length)
      pos = lf + 1
    }
    const runEnd = chunk.lastIndexOf('\n') + 1
    if (runEnd > pos) onLines(chunk, pos, runEnd)
    if (runEnd < chunk.length) tail.push(chunk.slice(runEnd))
  }

  function end(): void {
    if (tail.length === 0) return
    // The last line has no terminator: give it one (in LF text it may still carry the CR of
    // an unfinished CRLF, which the LF makes part of the break).
    const last = `${tail.join('')}\n`
    tail = []
    onLines(last, 0, last.length)
  }

  return { push, end }
}

/** CR-only text: a CR, with the LF of a CRLF, is one break. */
const CR_BREAK = /\r\n?/g

/** UNKNOWN while there is no break yet, or only a CR at the very end (maybe half a CRLF). */
function lineBreakStyle(text: string, from: number): number {
  const lf = text.indexOf('\n', from)
  const cr = text.indexOf('\r', from)
  if (cr >= 0 && (lf < 0 || cr < lf - 1)) return cr < text.length - 1 ? CR_ENDINGS : UNKNOWN
  return lf >= 0 ? LF_ENDINGS : UNKNOWN
}

/** Where the line from `start` to the LF at `lf` ends: a CR right before the LF is part of the break. */
export function lineEnd(buffer: string, start: number, lf: number): number {
  return lf > start && buffer.charCodeAt(lf - 1) === 13 ? lf - 1 : lf
}

/** For parsers that take one line at a time: each line of a run, without its break. */
export function forEachLine(buffer: string, start: number, end: number, onLine: LineHandler): void {
  for (let pos = start; pos < end; ) {
    const lf = buffer.indexOf('\n', pos)
    onLine(buffer, pos, lineEnd(buffer, pos, lf))
    pos = lf + 1
  }
}
