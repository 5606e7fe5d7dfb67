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
