/**
 * LINE day separator lines. Two shapes:
 *   year first:    2024/01/30(Tue)  2024/01/30 Tue  2024/03/08（五）  2024/5/31周五  2024.7.6 土曜日
 *   weekday first: Tue, 01/30/2024  Sun, 28/04/2024  Wed, 03/07/2562 BE
 * A weekday is required: a bare date is far more likely to be message text than a separator.
 */
import { ceYear, isValidDate } from './calendar'
import { isDigit, scanNumber, scanned } from './textScan'
import { weekdayFromName } from './weekdayNames'

/** Fields of the last line accepted by `scanDateLine`; `weekday` is -1 when not recognised. */
export const dateLine = { year: 0, first: 0, second: 0, yearFirst: false, weekday: -1 }

const LONGEST_WEEKDAY = 12
const BUDDHIST_ERA_OFFSET = 543

export function scanDateLine(text: string, start: number, end: number): boolean {
  let last = end
  while (last > start && (text.charCodeAt(last - 1) === 32 || text.charCodeAt(last - 1) === 9)) last--
  return isDigit(text.charCodeAt(start)) ? scanYearFirst(text, start, last) : scanWeekdayFirst(text, start, last)
}

function scanYearFirst(text: string, start: number, end: number): boolean {
  const year = scanNumber(text, start, 4)
  if (scanned.digits !== 4) return false
  let i = start + 4
  const separator = text.charCodeAt(i)
  if (separator !== 47 /* / */ && separator !== 46 /* . */) return false
  const month = scanNumber(text, ++i, 2)
  if (month < 0) return false
  i += scanned.digits
  if (text.charCodeAt(i) !== separator) return false
  const day = scanNumber(text, ++i, 2)
  if (day < 0) return false
  i += scanned.digits
  while (text.charCodeAt(i) === 32 && i < end) i++
  let wordStart = i
  let wordEnd = end
  const open = text.charCodeAt(i)
  if (open === 40 /* ( */ || open === 0xff08 /* （ */) {
    if (text.charCodeAt(end - 1) !== (open === 40 ? 41 : 0xff09)) return false
    wordStart++
    wordEnd--
  }
  if (!isWeekdayWord(text, wordStart, wordEnd)) return false
  const ce = ceYear(year, 4)
  if (!isValidDate(ce, month, day)) return false
  set(ce, month, day, true, -1)
  return true
}

function scanWeekdayFirst(text: string, start: number, end: number): boolean {
  let i = start
  while (i < end && i - start <= LONGEST_WEEKDAY && text.charCodeAt(i) !== 44 /* , */) i++
  if (text.charCodeAt(i) !== 44 || !isWeekdayWord(text, start, i)) return false
  const wordEnd = i
  if (text.charCodeAt(++i) !== 32) return false
  const first = scanNumber(text, ++i, 2)
  if (first < 0) return false
  i += scanned.digits
  if (text.charCodeAt(i) !== 47) return false
  const second = scanNumber(text, ++i, 2)
  if (second < 0) return false
  i += scanned.digits
  if (text.charCodeAt(i) !== 47) return false
  let year = scanNumber(text, ++i, 4)
  if (scanned.digits !== 4) return false
  i += 4
  if (i === end - 3 && text.startsWith(' BE', i)) {
    year -= BUDDHIST_ERA_OFFSET
    i = end
  } else {
    year = ceYear(year, 4)
  }
  if (i !== end) return false
  if (!isValidDate(year, second, first) && !isValidDate(year, first, second)) return false
  set(year, first, second, false, weekdayFromName(text.slice(start, wordEnd)))
  return true
}

/** A short run without digits, spaces or brackets: "Tue", "Saturday", "土曜日", "週二", "星期六". */
function isWeekdayWord(text: string, start: number, end: number): boolean {
  if (end <= start || end - start > LONGEST_WEEKDAY) return false
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c <= 32 || isDigit(c) || c === 40 || c === 41 || c === 0xff08 || c === 0xff09 || c === 44) return false
  }
  return true
}

function set(year: number, first: number, second: number, yearFirst: boolean, weekday: number): void {
  dateLine.year = year
  dateLine.first = first
  dateLine.second = second
  dateLine.yearFirst = yearFirst
  dateLine.weekday = weekday
}
