// Every date the product shows, in the formats of spec §9 and one fixed time zone (APP_TIME_ZONE).
import { format } from 'date-fns'
import { TZDate } from '@date-fns/tz'

export const DATE_FORMATS = {
  chatTime: 'EEEE yyyy-MM-dd HH:mm:ss',
  dayDivider: 'EEEE d MMMM, yyyy h:mm a',
  subscriptionExpiry: 'yyyy/MM/dd HH:mm',
  admin: 'yyyy-MM-dd HH:mm:ss',
} as const

export function timeZone(): string {
  if (typeof document === 'undefined') return 'Asia/Taipei'
  const el = document.getElementById('i18n-resources')
  return (el && JSON.parse(el.textContent || '{}').timeZone) || 'Asia/Taipei'
}

export function formatInZone(date: Date | string | number, pattern: string, zone = timeZone()): string {
  return format(new TZDate(new Date(date).getTime(), zone), pattern)
}
