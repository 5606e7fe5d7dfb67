/**
 * Collects records as they are parsed and turns them into the result.
 *
 * A record's date is written as soon as its day's reading is known: always for y/m/d dates,
 * and for d/m vs m/d once a date in the file has settled the order. Records on days read
 * before that wait in a queue and get their dates when the order is settled (at the latest at
 * the end), so the common case touches each record once.
 */
import { isValidDate } from './calendar'
import { createDateOrderEvidence, isDayFirst, observeDate, UNDECIDED, type DateOrderEvidence } from './dateOrder'
import type { ChatMessage, ChatParseResult, ChatPlatform } from './types'

export interface MessageLog {
  messages: ChatMessage[]
  /** Four numbers per day: year, first, second (as written), 1 when written year-first. */
  days: number[]
  /** "YYYY-MM-DDT" per day, or null while its day/month order is unknown. */
  dayPrefixes: Array<string | null>
  /** Records waiting for their date: message index, day index, seconds since midnight. */
  waiting: number[]
  evidence: DateOrderEvidence
  /** "HH:MM:" by minute of the day, made on first use. */
  minutes: string[]
  lastDay: number
  lastSeconds: number
  lastDate: string
  speakers: string[]
  speakerSet: Set<string>
  lastSpeaker: string
  messageCount: number
  systemCount: number
}

export function createMessageLog(): MessageLog {
  return {
    messages: [],
    days: [],
    dayPrefixes: [],
    waiting: [],
    evidence: createDateOrderEvidence(),
    minutes: new Array<string>(1440),
    lastDay: -1,
    lastSeconds: -1,
    lastDate: '',
    speakers: [],
    speakerSet: new Set(),
    lastSpeaker: '',
    messageCount: 0,
    systemCount: 0,
  }
}

/**
 * Registers a date and returns its index; repeats of the latest date reuse it.
 * `yearFirst` dates are y/m/d; otherwise `first`/`second` are day and month in an order
 * settled over the file. `weekday` is the weekday printed with the date (0 = Sunday) or -1.
 */
export function addDay(log: MessageLog, year: number, first: number, second: number, yearFirst: boolean, weekday = -1): number {
  const days = log.days
  const last = days.length - 4
  const flag = yearFirst ? 1 : 0
  if (last >= 0 && days[last] === year && days[last + 1] === first && days[last + 2] === second && days[last + 3] === flag) {
    return last / 4
  }
  days.push(year, first, second, flag)
  const evidence = log.evidence
  if (yearFirst) {
    log.dayPrefixes.push(dayPrefix(year, first, second))
  } else {
    const before = evidence.decided
    observeDate(evidence, year, first, second, weekday)
    log.dayPrefixes.push(null)
    if (evidence.decided !== UNDECIDED) settle(log, before === UNDECIDED)
  }
  return last / 4 + 1
}

/** `author` and `text` already cleaned. */
export function addRecord(log: MessageLog, day: number, seconds: number, author: string, text: string, system: boolean): void {
  // A record whose name column is empty once invisible marks are gone has no real author.
  const kind = system || author === '' ? 'system' : 'message'
  if (kind === 'message') {
    log.messageCount++
    if (author !== log.lastSpeaker) {
      log.lastSpeaker = author
      if (!log.speakerSet.has(author)) {
        log.speakerSet.add(author)
        log.speakers.push(author)
      }
    }
  } else {
    log.systemCount++
  }
  let date = ''
  if (log.dayPrefixes[day] === null) log.waiting.push(log.messages.length, day, seconds)
  else date = dateOf(log, day, seconds)
  log.messages.push({ date, author, text, kind })
}

export function finishLog(log: MessageLog, platform: ChatPlatform): ChatParseResult {
  if (log.messages.length === 0) return { ok: false, error: 'EmptyChatExport' }
  settle(log, true)
  return {
    ok: true,
    platform,
    messages: log.messages,
    speakers: log.speakers,
    messageCount: log.messageCount,
    systemCount: log.systemCount,
  }
}

/** Fills in day prefixes the order now decides; with `all`, also every waiting record. */
function settle(log: MessageLog, all: boolean): void {
  const dayFirst = isDayFirst(log.evidence)
  const { days, dayPrefixes } = log
  for (let day = all ? 0 : dayPrefixes.length - 1; day < dayPrefixes.length; day++) {
    if (dayPrefixes[day] !== null) continue
    const [year, first, second] = [days[4 * day], days[4 * day + 1], days[4 * day + 2]]
    // A date that only reads the other way (an inconsistent file) is read that way.
    const useDayFirst = dayFirst ? isValidDate(year, second, first) : !isValidDate(year, first, second)
    dayPrefixes[day] = useDayFirst ? dayPrefix(year, second, first) : dayPrefix(year, first, second)
  }
  if (!all) return
  const { waiting, messages } = log
  for (let i = 0; i < waiting.length; i += 3) messages[waiting[i]].date = dateOf(log, waiting[i + 1], waiting[i + 2])
  log.waiting = []
}

function dateOf(log: MessageLog, day: number, seconds: number): string {
  // Consecutive records with the same time share one string.
  if (day !== log.lastDay || seconds !== log.lastSeconds) {
    log.lastDay = day
    log.lastSeconds = seconds
    const minute = (seconds / 60) | 0
    // One three-part string per record, sharing its parts. A template makes one rope where
    // "a + b + c" would make two (the inner one kept as a part).
    log.lastDate = `${log.dayPrefixes[day] as string}${(log.minutes[minute] ??= hourMinute(minute))}${TWO_DIGITS[seconds - minute * 60]}`
  }
  return log.lastDate
}

function dayPrefix(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T`
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => pad(n, 2))

/** "HH:MM:" for a minute of the day. */
function hourMinute(minute: number): string {
  return `${TWO_DIGITS[(minute / 60) | 0]}:${TWO_DIGITS[minute % 60]}:`
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0')
}
