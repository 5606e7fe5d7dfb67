/**
 * Splits decoded text into lines across arbitrary chunk boundaries.
 *
 * The first line break decides the style: a lone CR means classic CR-only text, split on CR
 * and LF alike; otherwise lines end at LF and a CR right before it belongs to the break. That
 * keeps CRLF files (iOS WhatsApp, LINE mobile) to one native search per line.
 *
 * Lines are handed over as (buffer, start, end) so callers can take one substring per record
 * instead of one per line; `buffer[end]` is always a line terminator or past the buffer, which
 * lets the scanners read one character beyond a line without a bounds check.
 * Only the unfinished last line of a chunk is kept between pushes, never the whole text.
 */
export type LineHandler = (buffer: string, start: number, end: number) => void

export interface LineReader {
  push(chunk: string): void
  end(): void
}

// Past any string JavaScriptCore can hold, yet an int32: a double here would make every
// position a double and de-optimise the scanners.
const NONE = 0x7fffffff

const UNKNOWN = 0
const LF_ENDINGS = 1
const CR_ENDINGS = 2

export function createLineReader(onLine: LineHandler): LineReader {
  // Pieces of a line whose terminator has not arrived yet; joined once it does, so a long
  // line split over many chunks is copied once rather than once per chunk.
  let tail: string[] = []
  let atFileStart = true
  let style = UNKNOWN
  // A chunk that ended in CR: an LF at the start of the next chunk belongs to the same CRLF.
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
    const hasBreak = chunk.indexOf('\n', from) >= 0 || (style === CR_ENDINGS && chunk.indexOf('\r', from) >= 0)
    if (!hasBreak) {
      if (chunk.length > from) tail.push(from === 0 ? chunk : chunk.slice(from))
      return
    }
    let buffer = chunk
    let pos = from
    if (tail.length > 0) {
      tail.push(chunk.slice(from))
      buffer = tail.join('')
      tail = []
      pos = 0
    }
    pos = style === CR_ENDINGS ? splitAny(buffer, pos) : splitLF(buffer, pos)
    if (pos < buffer.length) tail.push(buffer.slice(pos))
  }

  function splitLF(buffer: string, pos: number): number {
    for (let lf = buffer.indexOf('\n', pos); lf >= 0; lf = buffer.indexOf('\n', pos)) {
      onLine(buffer, pos, lf > pos && buffer.charCodeAt(lf - 1) === 13 ? lf - 1 : lf)
      pos = lf + 1
    }
    return pos
  }

  function splitAny(buffer: string, pos: number): number {
    const length = buffer.length
    let nextLF = -1
    let nextCR = -1
    // Both positions are cached and only searched again once passed.
    for (;;) {
      if (nextLF < pos) {
        nextLF = buffer.indexOf('\n', pos)
        if (nextLF < 0) nextLF = NONE
      }
      if (nextCR < pos) {
        nextCR = buffer.indexOf('\r', pos)
        if (nextCR < 0) nextCR = NONE
      }
      const end = nextLF < nextCR ? nextLF : nextCR
      if (end === NONE) return pos
      onLine(buffer, pos, end)
      pos = end + 1
      if (end === nextCR) {
        if (pos === length) skipLeadingLF = true
        else if (buffer.charCodeAt(pos) === 10) pos++
      }
    }
  }

  function end(): void {
    if (tail.length === 0) return
    const last = tail.join('')
    tail = []
    // In LF text a final line may still carry the CR of an unfinished CRLF.
    const end = last.charCodeAt(last.length - 1) === 13 ? last.length - 1 : last.length
    onLine(last, 0, end)
  }

  return { push, end }
}

/** UNKNOWN while there is no break yet, or only a CR at the very end (maybe half a CRLF). */
function lineBreakStyle(text: string, from: number): number {
  const lf = text.indexOf('\n', from)
  const cr = text.indexOf('\r', from)
  if (cr >= 0 && (lf < 0 || cr < lf - 1)) return cr < text.length - 1 ? CR_ENDINGS : UNKNOWN
  return lf >= 0 ? LF_ENDINGS : UNKNOWN
}
