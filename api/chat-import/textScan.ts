/** Character-level helpers shared by the scanners. */

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/** Empty or only spaces and tabs. */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 9) return false
  }
  return true
}

/** Length of the digit run read by the last `scanNumber`. */
export const scanned = { digits: 0 }

/** Reads a run of 1…`maxDigits` ASCII digits; returns its value, or -1 if none or too long. */
export function scanNumber(text: string, start: number, maxDigits: number): number {
  let value = 0
  let i = start
  let c = text.charCodeAt(i)
  while (c >= 48 && c <= 57) {
    if (i - start === maxDigits) return -1
    value = value * 10 + c - 48
    c = text.charCodeAt(++i)
  }
  scanned.digits = i - start
  return i === start ? -1 : value
}

/**
 * buffer[start, end) with its CRLF breaks made "\n" (`crlf`: the range spans at least one).
 * A lone CR is a character, not a break, and stays. Built from the pieces between breaks,
 * which share the buffer, rather than by copying and replacing.
 */
export function rangeText(buffer: string, start: number, end: number, crlf: boolean): string {
  if (!crlf) return buffer.slice(start, end)
  let text = ''
  let pieceStart = start
  for (let cr = buffer.indexOf('\r', start); cr >= 0 && cr < end; cr = buffer.indexOf('\r', cr + 1)) {
    if (buffer.charCodeAt(cr + 1) !== 10) continue
    text += `${buffer.slice(pieceStart, cr)}\n`
    pieceStart = cr + 2
  }
  return text + buffer.slice(pieceStart, end)
}
