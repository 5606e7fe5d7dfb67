/** Small Gregorian-calendar helpers for validating and interpreting export dates. */

/** Buddhist-era years (CE + 543) reach 2400+ only on Thai-calendar devices; no chat is dated 2400 CE. */
const BUDDHIST_ERA_FROM = 2400
const BUDDHIST_ERA_OFFSET = 543

/** Year as written (2 or 4 digits, CE or Buddhist era) to a CE year. */
export function ceYear(year: number, digits: number): number {
  if (digits <= 2) return 2000 + year
  return year >= BUDDHIST_ERA_FROM ? year - BUDDHIST_ERA_OFFSET : year
}

export function isValidDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** 0 = Sunday … 6 = Saturday (Sakamoto's method). */
export function weekday(year: number, month: number, day: number): number {
  const offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
  const y = month < 3 ? year - 1 : year
  return (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + offsets[month - 1] + day) % 7
}
