/**
 * Splits decoded text into lines on CRLF, LF or lone CR, across arbitrary chunk boundaries.
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

export function createLineReader(onLine: LineHandler): LineReader {
  // Pieces of a line whose terminator has not arrived yet; joined once it does, so a long
  // line split over many chunks is copied once rather than once per chunk.
  let tail: string[] = []
  let atFileStart = true
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
    let nextLF = chunk.indexOf('\n', from)
    let nextCR = chunk.indexOf('\r', from)
    if (nextLF < 0 && nextCR < 0) {
      if (chunk.length > from) tail.push(from === 0 ? chunk : chunk.slice(from))
      return
    }
    let buffer = chunk
    let pos = from
    if (tail.length > 0) {
      const carried = tail.join('')
      tail = []
      buffer = carried + chunk.slice(from)
      pos = 0
      const shift = carried.length - from
      if (nextLF >= 0) nextLF += shift
      if (nextCR >= 0) nextCR += shift
    }
    if (nextLF < 0) nextLF = NONE
    if (nextCR < 0) nextCR = NONE
    const length = buffer.length
    // Both positions are cached and only searched again once passed, so LF-only text never
    // rescans for a CR that does not exist.
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
      if (end === NONE) break
      onLine(buffer, pos, end)
      pos = end + 1
      if (end === nextCR) {
        if (pos === length) skipLeadingLF = true
        else if (buffer.charCodeAt(pos) === 10) pos++
      }
    }
    if (pos < length) tail.push(buffer.slice(pos))
  }

  function end(): void {
    if (tail.length === 0) return
    const last = tail.join('')
    tail = []
    onLine(last, 0, last.length)
  }

  return { push, end }
}
