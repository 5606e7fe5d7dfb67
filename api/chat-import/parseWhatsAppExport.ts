/**
 * WhatsApp plain-text export parser (iOS "[date, time] Name: text" and Android
 * "date, time - Name: text", every locale in the formats notes). One pass over the lines;
 * a line that is not a complete header continues the previous record.
 */
import { authorAt, createAuthorNames } from './authorNames'
import { createMarkFinder } from './fieldCleanup'
import { createLineReader, forEachLine } from './lineReader'
import { addDay, addRecord, createMessageLog, finishLog } from './messageLog'
import { appendLine, cleanText, closeRecord, createPendingRecord, openRecord } from './pendingRecord'
import { DASHED, header, scanHeader } from './whatsAppHeader'
import { isEncryptionNotice, isIosPlaceholder } from './whatsAppNotices'
import { isBlank } from './textScan'
import type { ChatExportParser, ChatParseResult } from './types'

/** Longer than any name: a ": " this far in is inside a notice if the notice is recognised. */
const LONGEST_NAME = 30
/** Limits for the rare "Name:text" form (no space after the colon), kept tight to spare notices. */
const GLUED_NAME_MAX = 40
const GLUED_NAME_MAX_SPACES = 3

/** Whether the line at `start` can open a WhatsApp export. */
export function isWhatsAppFirstLine(text: string, start: number): boolean {
  return scanHeader(text, start) && opensExport(text)
}

/**
 * Whether a header read by scanHeader is a record wherever it stands: the iOS and Android forms
 * always; the colon and bare forms, which say less, only on a message ("DATE TIME Name: text") or
 * the encryption notice exports start with. So a log or a note that starts with a date and a time
 * is not taken for an export, nor such a line in a message for a record.
 */
function opensExport(text: string): boolean {
  if (header.form <= DASHED || isEncryptionNotice(text, header.body)) return true
  for (let i = header.body; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) return false
    if (c === 58 && text.charCodeAt(i + 1) === 32) return i > header.body
  }
  return false
}

export function parseWhatsAppExport(text: string): ChatParseResult {
  const parser = createWhatsAppExportParser()
  parser.push(text)
  return parser.end()
}

export function createWhatsAppExportParser(): ChatExportParser {
  const log = createMessageLog()
  const pending = createPendingRecord()
  const names = createAuthorNames()
  const marks = createMarkFinder()
  let started = false
  let rejected = false
  /**
   * The header form of the file's first record. A colon- or bare-form line is a record when it has an author (so
   * it is one after a line of any form), or, in a file of its form, also as a notice: elsewhere "13.06.18 21:25 we
   * met" is message text.
   */
  let form = DASHED
  const reader = createLineReader((buffer, start, end) => forEachLine(buffer, start, end, onLine))

  function onLine(buffer: string, start: number, end: number): void {
    if (rejected) return
    if (scanHeader(buffer, start) && (opensExport(buffer) || (started && header.form === form))) {
      if (!started) form = header.form
      started = true
      startRecord(buffer, end)
    } else if (!started) {
      // An export starts with a header; anything else first means this is not one.
      if (!isBlank(buffer, start, end)) rejected = true
    } else if (start === end) {
      pending.blankLines++
    } else {
      appendLine(pending, buffer, start, end)
    }
  }

  function startRecord(buffer: string, end: number): void {
    finishRecord()
    const day = addDay(log, header.year, header.first, header.second, header.yearFirst)
    const body = header.body
    // The author ends at the first ": " that is not inside quotes (notices quote group names).
    let quotes = 0
    let colon = -1
    let gluedColon = -1
    for (let i = body; i < end; i++) {
      const c = buffer.charCodeAt(i)
      if (c === 58 /* : */) {
        if (buffer.charCodeAt(i + 1) === 32) {
          if ((quotes & 1) === 0) {
            colon = i
            break
          }
        } else if (gluedColon < 0 && quotes === 0) {
          gluedColon = i
        }
      } else if (c === 34 || c === 0x201c || c === 0x201d) {
        quotes++
      }
    }
    if (colon >= 0 && !(colon - body > LONGEST_NAME && isEncryptionNotice(buffer, body))) {
      const textStart = colon + 2
      let system = false
      if (header.bracketed && buffer.charCodeAt(textStart) === 0x200e) {
        let after = textStart + 1
        while (buffer.charCodeAt(after) === 0x200e) after++
        system = !isIosPlaceholder(buffer, after, end)
      }
      openRecord(pending, day, header.seconds, authorAt(names, buffer, body, colon), system, buffer, textStart, end)
    } else if (colon < 0 && gluedColon >= 0 && isGluedName(buffer, body, gluedColon, end)) {
      openRecord(pending, day, header.seconds, authorAt(names, buffer, body, gluedColon), false, buffer, gluedColon + 1, end)
    } else {
      openRecord(pending, day, header.seconds, '', true, buffer, body, end)
    }
  }

  function finishRecord(): void {
    if (!pending.active) return
    addRecord(log, pending.day, pending.seconds, pending.author, cleanText(pending, marks), pending.system)
    closeRecord(pending)
  }

  return {
    push: reader.push,
    end(): ChatParseResult {
      reader.end()
      finishRecord()
      if (rejected || !started) return { ok: false, error: 'NotAChatExport' }
      return finishLog(log, 'whatsapp')
    },
  }
}

/**
 * "Bob:Hi" (reported, rare). Accepted only when the part before the colon is short, has few
 * words and the colon is not part of a time or URL, so notices such as "… changed to 12:30"
 * stay notices.
 */
function isGluedName(text: string, start: number, colon: number, end: number): boolean {
  if (colon === start || colon - start > GLUED_NAME_MAX || colon + 1 >= end) return false
  const before = text.charCodeAt(colon - 1)
  const after = text.charCodeAt(colon + 1)
  if ((before >= 48 && before <= 57) || (after >= 48 && after <= 57) || after === 47 /* / */) return false
  let spaces = 0
  for (let i = start; i < colon; i++) if (text.charCodeAt(i) === 32) spaces++
  return spaces <= GLUED_NAME_MAX_SPACES
}
