/**
 * Time-of-day scanner shared by both platforms:
 *   PERIOD? H{1,2} (":"|".") MM ((":"|".") SS)? (GAP? MARKER)?
 * PERIOD is written before the hour (上午/下午 zh, 午前/午後 ja, 오전/오후 ko), MARKER after it
 * (AM, pm, a.m., p. m. with a plain, no-break or narrow no-break space inside).
 *
 * Reads sequentially from `start` and stops at the first mismatch; it never accepts a line
 * terminator, so callers may rely on `text[lineEnd]` ending the match without bounds checks.
 */
import { isDigit } from './textScan'

/** Seconds since midnight of the last successful `scanClock`. */
export const clock = { seconds: 0 }

const AM = 1
const PM = 2

function isGap(code: number): boolean {
  return code === 32 || code === 0xa0 || code === 0x202f || code === 0x2009
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

/** Returns the index after the time, or -1. */
export function scanClock(text: string, start: number): number {
  let i = start
  let c = text.charCodeAt(i)
  let period = 0
  // Most times start with the hour; only look for a period word when they do not.
  if (!isDigit(c)) {
    period = periodAt(text, i, c)
    if (period === 0) return -1
    i += 2
    if (text.charCodeAt(i) === 32) i++
    c = text.charCodeAt(i)
  }

  if (!isDigit(c)) return -1
  let hour = c - 48
  c = text.charCodeAt(++i)
  if (isDigit(c)) {
    hour = hour * 10 + c - 48
    c = text.charCodeAt(++i)
  }
  if (c !== 58 /* : */ && c !== 46 /* . */) return -1
  const m1 = text.charCodeAt(i + 1)
  const m2 = text.charCodeAt(i + 2)
  if (!isDigit(m1) || !isDigit(m2)) return -1
  const minute = (m1 - 48) * 10 + m2 - 48
  i += 3
  let second = 0
  c = text.charCodeAt(i)
  if (c === 58 || c === 46) {
    const s1 = text.charCodeAt(i + 1)
    const s2 = text.charCodeAt(i + 2)
    if (isDigit(s1) && isDigit(s2)) {
      second = (s1 - 48) * 10 + s2 - 48
      i += 3
    }
  }

  if (period === 0 && hour <= 12) {
    const end = scanMarker(text, i)
    if (end > 0) {
      period = marker
      i = end
    }
  }

  if (minute > 59 || second > 59) return -1
  if (period === 0) {
    // Some LINE desktop exports write 24:xx for just after midnight.
    if (hour > 24) return -1
    hour %= 24
  } else {
    if (hour > 12) return -1
    hour = (hour % 12) + (period === PM ? 12 : 0)
  }
  clock.seconds = hour * 3600 + minute * 60 + second
  return i
}

/** AM or PM for a period word (上午, 午後, 오전, …) starting at text[i] = c, otherwise 0. */
function periodAt(text: string, i: number, c: number): number {
  const next = text.charCodeAt(i + 1)
  if (c === 0x4e0a /* 上 */ && next === 0x5348 /* 午 */) return AM
  if (c === 0x4e0b /* 下 */ && next === 0x5348) return PM
  if (c === 0x5348 /* 午 */ && next === 0x524d /* 前 */) return AM
  if (c === 0x5348 && next === 0x5f8c /* 後 */) return PM
  if (c === 0xc624 /* 오 */ && next === 0xc804 /* 전 */) return AM
  if (c === 0xc624 && next === 0xd6c4 /* 후 */) return PM
  return 0
}

let marker = 0

/** Matches GAP? [aApP] "."? SPACE? [mM] "."? not followed by a letter; sets `marker`. */
function scanMarker(text: string, start: number): number {
  let i = start
  let c = text.charCodeAt(i)
  if (isGap(c)) c = text.charCodeAt(++i)
  if (c === 97 || c === 65) marker = AM
  else if (c === 112 || c === 80) marker = PM
  else return -1
  c = text.charCodeAt(++i)
  if (c === 46) c = text.charCodeAt(++i)
  if (isGap(c)) c = text.charCodeAt(++i)
  if (c !== 109 && c !== 77) return -1
  c = text.charCodeAt(++i)
  if (c === 46) c = text.charCodeAt(++i)
  // "10:00 Amy hi" (LINE desktop, space columns) must keep Amy as the name.
  if (isAsciiLetter(c)) return -1
  return i
}
