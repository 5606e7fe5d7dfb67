/**
 * Writes messages back out in a given export format. Used to generate round-trip property
 * tests and the large benchmark files; the shapes follow the formats notes.
 */
import type { ChatMessage } from './types'

export type WhatsAppFormat = 'android-dmy-24h' | 'android-mdy-12h' | 'android-ymd-zh' | 'ios-dmy-24h' | 'ios-mdy-12h' | 'ios-dotted'
export type LineFormat = 'mobile-en' | 'mobile-en-12h' | 'mobile-zh-TW' | 'desktop-en'

export interface RenderOptions {
  /** WhatsApp: CRLF after every line; LINE: CRLF between records, LF inside quoted text (as observed). */
  crlf?: boolean
  bom?: boolean
  /** iOS: the name shown on attributed notices. */
  groupName?: string
}

/** Formats that print seconds; others need messages on whole minutes to round-trip. */
export const FORMATS_WITH_SECONDS: ReadonlySet<string> = new Set(['ios-dmy-24h', 'ios-mdy-12h', 'ios-dotted'])

interface Stamp {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

function stamp(date: string): Stamp {
  return {
    year: Number(date.slice(0, 4)),
    month: Number(date.slice(5, 7)),
    day: Number(date.slice(8, 10)),
    hour: Number(date.slice(11, 13)),
    minute: Number(date.slice(14, 16)),
    second: Number(date.slice(17, 19)),
  }
}

const p2 = (n: number) => String(n).padStart(2, '0')
const h12 = (hour: number) => (hour % 12 === 0 ? 12 : hour % 12)

function whatsAppStamp(s: Stamp, format: WhatsAppFormat): string {
  const ampm = s.hour < 12 ? 'AM' : 'PM'
  switch (format) {
    case 'android-dmy-24h':
      return `${p2(s.day)}/${p2(s.month)}/${s.year}, ${p2(s.hour)}:${p2(s.minute)} -`
    case 'android-mdy-12h':
      return `${s.month}/${s.day}/${p2(s.year % 100)}, ${h12(s.hour)}:${p2(s.minute)}\u202f${ampm} -`
    case 'android-ymd-zh':
      return `${s.year}/${s.month}/${s.day} ${s.hour < 12 ? '上午' : '下午'}${h12(s.hour)}:${p2(s.minute)} -`
    case 'ios-dmy-24h':
      return `[${p2(s.day)}/${p2(s.month)}/${s.year}, ${p2(s.hour)}:${p2(s.minute)}:${p2(s.second)}]`
    case 'ios-mdy-12h':
      return `[${s.month}/${s.day}/${p2(s.year % 100)}, ${h12(s.hour)}:${p2(s.minute)}:${p2(s.second)}\u202f${ampm}]`
    case 'ios-dotted':
      return `[${p2(s.day)}.${p2(s.month)}.${p2(s.year % 100)}, ${p2(s.hour)}:${p2(s.minute)}:${p2(s.second)}]`
  }
}

export function renderWhatsApp(messages: readonly ChatMessage[], format: WhatsAppFormat, options: RenderOptions = {}): string {
  const ios = format.startsWith('ios')
  const group = options.groupName ?? 'Group'
  const lines: string[] = []
  for (const m of messages) {
    const head = whatsAppStamp(stamp(m.date), format)
    if (m.kind === 'message') lines.push(`${head} ${m.author}: ${m.text}`)
    else if (ios) lines.push(`${head} ${group}: \u200e${m.text}`)
    else lines.push(`${head} ${m.text}`)
  }
  return finish(lines, options)
}

const EN_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const EN_DAYS_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const ZH_DAYS = ['日', '一', '二', '三', '四', '五', '六']

function dayOfWeek(s: Stamp): number {
  return new Date(Date.UTC(s.year, s.month - 1, s.day)).getUTCDay()
}

function lineDateLine(s: Stamp, format: LineFormat): string {
  const ymd = `${s.year}/${p2(s.month)}/${p2(s.day)}`
  switch (format) {
    case 'mobile-en':
      return `${ymd}(${EN_DAYS[dayOfWeek(s)]})`
    case 'mobile-en-12h':
      return `${EN_DAYS[dayOfWeek(s)]}, ${p2(s.month)}/${p2(s.day)}/${s.year}`
    case 'mobile-zh-TW':
      return `${ymd}（${ZH_DAYS[dayOfWeek(s)]}）`
    case 'desktop-en':
      return `${s.year}.${p2(s.month)}.${p2(s.day)} ${EN_DAYS_LONG[dayOfWeek(s)]}`
  }
}

function lineTime(s: Stamp, format: LineFormat): string {
  if (format === 'mobile-en-12h') return `${h12(s.hour)}:${p2(s.minute)}${s.hour < 12 ? 'AM' : 'PM'}`
  if (format === 'mobile-zh-TW') return `${s.hour < 12 ? '上午' : '下午'}${p2(h12(s.hour))}:${p2(s.minute)}`
  return `${p2(s.hour)}:${p2(s.minute)}`
}

export function renderLine(messages: readonly ChatMessage[], format: LineFormat, options: RenderOptions = {}): string {
  const mobile = format !== 'desktop-en'
  const lines: string[] = []
  if (mobile) lines.push(`[LINE] Chat history in ${options.groupName ?? 'Group'}`, 'Saved on: 2024/02/03 21:40', '')
  let day = ''
  for (const m of messages) {
    const s = stamp(m.date)
    if (m.date.slice(0, 10) !== day) {
      if (mobile && day !== '') lines.push('')
      day = m.date.slice(0, 10)
      lines.push(lineDateLine(s, format))
    }
    // Mobile quotes multi-line text; desktop writes continuation lines as they are.
    const text = mobile && m.text.includes('\n') ? `"${m.text}"` : m.text
    lines.push(m.kind === 'message' ? `${lineTime(s, format)}\t${m.author}\t${text}` : `${lineTime(s, format)}\t\t${text}`)
  }
  const eol = options.crlf ? '\r\n' : '\n'
  return withBom(`${lines.join(eol)}${eol}`, options)
}

function finish(lines: string[], options: RenderOptions): string {
  const text = `${lines.join('\n')}\n`
  return withBom(options.crlf ? text.replaceAll('\n', '\r\n') : text, options)
}

function withBom(text: string, options: RenderOptions): string {
  return options.bom ? `\ufeff${text}` : text
}
