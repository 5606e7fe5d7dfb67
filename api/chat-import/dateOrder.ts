/**
 * Day/month order is never stated in an export. The first date that only fits one order
 * (a number over 12, or a printed weekday that matches one reading) settles it; files without
 * such a date are settled at the end from how the numbers move. Only dates whose first two
 * numbers could be either day or month are observed (`first`, `second` as written).
 */
import { isValidDate, weekday } from './calendar'

export const UNDECIDED = 0
export const DAY_FIRST = 1
export const MONTH_FIRST = 2

export interface DateOrderEvidence {
  decided: number
  firstDrops: number
  secondDrops: number
  firstChanges: number
  secondChanges: number
  previousYear: number
  previousFirst: number
  previousSecond: number
}

export function createDateOrderEvidence(): DateOrderEvidence {
  return {
    decided: UNDECIDED,
    firstDrops: 0,
    secondDrops: 0,
    firstChanges: 0,
    secondChanges: 0,
    previousYear: -1,
    previousFirst: 0,
    previousSecond: 0,
  }
}

/**
 * Call once per change of date, in file order. `day` is the weekday printed next to the date
 * (0 = Sunday), or -1.
 */
export function observeDate(evidence: DateOrderEvidence, year: number, first: number, second: number, day: number): void {
  if (evidence.decided === UNDECIDED) {
    if (first > 12) evidence.decided = DAY_FIRST
    else if (second > 12) evidence.decided = MONTH_FIRST
    else if (day >= 0) evidence.decided = orderFromWeekday(year, first, second, day)
  }
  if (evidence.previousYear >= 0) {
    // Within a year the month only grows, so whichever number goes backwards is the day.
    if (year === evidence.previousYear) {
      if (first < evidence.previousFirst) evidence.firstDrops++
      if (second < evidence.previousSecond) evidence.secondDrops++
    }
    if (first !== evidence.previousFirst) evidence.firstChanges++
    if (second !== evidence.previousSecond) evidence.secondChanges++
  }
  evidence.previousYear = year
  evidence.previousFirst = first
  evidence.previousSecond = second
}

function orderFromWeekday(year: number, first: number, second: number, day: number): number {
  const fitsDayFirst = isValidDate(year, second, first) && weekday(year, second, first) === day
  const fitsMonthFirst = isValidDate(year, first, second) && weekday(year, first, second) === day
  if (fitsDayFirst === fitsMonthFirst) return UNDECIDED
  return fitsDayFirst ? DAY_FIRST : MONTH_FIRST
}

/** The settled order, or the best reading of the whole file: backwards steps, then change rate. */
export function isDayFirst(evidence: DateOrderEvidence): boolean {
  if (evidence.decided !== UNDECIDED) return evidence.decided === DAY_FIRST
  if (evidence.firstDrops !== evidence.secondDrops) return evidence.firstDrops > evidence.secondDrops
  if (evidence.firstChanges !== evidence.secondChanges) return evidence.firstChanges > evidence.secondChanges
  // Nothing to go on (e.g. a single ambiguous date): most locales write the day first.
  return true
}
