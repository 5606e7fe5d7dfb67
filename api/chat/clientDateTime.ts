// The person's local time as the client sends it (spec §9 chat time format, "Sunday 2026-11-22 10:30:00").
// It goes into the prompt as written; checking it keeps garbage out of the prompt and catches client bugs.

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const FORMAT = /^([A-Z][a-z]+) (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

export const CLIENT_DATE_TIME_HINT = 'currentDateTime must look like "Sunday 2026-11-22 10:30:00" (weekday yyyy-MM-dd HH:mm:ss)'

/** True for a real calendar date and time whose weekday matches the date. */
export function isClientDateTime(value: string): boolean {
  const m = FORMAT.exec(value)
  if (!m) return false
  const [year, month, day, hour, minute, second] = m.slice(2).map(Number)
  if (hour > 23 || minute > 59 || second > 59) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false
  return WEEKDAYS[date.getUTCDay()] === m[1]
}
