/** Property tests: hostile input never throws, chunking never matters, rendered chats round-trip. */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createChatExportParser, parseChatExport } from '../../../api/chat-import/parseChatExport'
import {
  FORMATS_WITH_SECONDS, renderLine, renderWhatsApp, type LineFormat, type WhatsAppFormat,
} from '../../../api/chat-import/renderChatExport'
import type { ChatMessage, ChatParseResult } from '../../../api/chat-import/types'

/** Pieces of real export syntax, so random text often gets deep into the scanners. */
const FRAGMENTS = [
  '[1/15/24, 9:05:12\u202fPM] ', '15/01/2024, 21:05 - ', '2024/1/15 下午9:05 - ', '20/6/2017 8:28 p.\u00a0m. - ',
  '[LINE] Chat history with A', '2024/01/30(Tue)', 'Tue, 01/30/2024', '2024.05.11 Saturday', '09:12\t', '午前12:03\t',
  '9:12AM\t', 'Name: ', 'Name:', '\t', '\t\t', '"', '\u200e', '\u202a', '\ufeff', '\r\n', '\n', '\r', ' ', '13', '/', '.',
]
const chatLike = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 80 })
  .map((parts) => parts.join(''))

function checkShape(result: ChatParseResult): void {
  if (!result.ok) {
    expect(['NotAChatExport', 'EmptyChatExport']).toContain(result.error)
    return
  }
  expect(result.messageCount + result.systemCount).toBe(result.messages.length)
  for (const m of result.messages) {
    // A real calendar date and time, written the way toISOString writes it.
    expect(m.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    expect(new Date(`${m.date}Z`).toISOString().slice(0, 19)).toBe(m.date)
  }
  const authors = new Set(result.messages.filter((m) => m.kind === 'message').map((m) => m.author))
  expect(new Set(result.speakers)).toEqual(authors)
}

describe('hostile input', () => {
  test('arbitrary strings and chat-like junk never throw', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), chatLike), (text) => {
      checkShape(parseChatExport(text))
    }), { numRuns: 2000 })
  })

  test('arbitrary bytes never throw', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      checkShape(parseChatExport(bytes))
    }), { numRuns: 1000 })
  })

  test('how the text is chunked never changes the result', () => {
    fc.assert(fc.property(chatLike, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
      const parser = createChatExportParser()
      let at = 0
      for (const cut of [...cuts.map((c) => c % (text.length + 1))].sort((a, b) => a - b)) {
        parser.push(text.slice(at, cut))
        at = cut
      }
      parser.push(text.slice(at))
      expect(parser.end()).toEqual(parseChatExport(text))
    }), { numRuns: 1000 })
  })

  test('large junk finishes in linear time', () => {
    // Many quote openers that never close and headers without bodies: the worst cases for
    // the LINE quote look-ahead and the WhatsApp author scan.
    const line = `[LINE] x\n2024/01/30(Tue)\n${'09:12\tMia\t"open\n'.repeat(200_000)}`
    // Space columns and no tab anywhere: the lines read again after each false quote must not
    // search the rest of the file.
    const desktop = `2024/01/30(Tue)\n${'09:12 Mia "open\n'.repeat(400_000)}`
    const whatsapp = '15/01/2024, 21:05 - '.concat('x'.repeat(100), '\n').repeat(100_000)
    for (const text of [line, desktop, whatsapp]) {
      const started = performance.now()
      checkShape(parseChatExport(text))
      // Generous for a busy CI machine; a quadratic pass would take minutes.
      expect(performance.now() - started).toBeLessThan(10_000)
    }
  })
})

// Round trip: names and text drawn from characters that cannot form export syntax by accident.
const WORD_CHARS = 'abcxyzABQ0189é陳美花子😀🙌.,!?-+()/'
const word = fc.string({ unit: fc.constantFrom(...WORD_CHARS), minLength: 1, maxLength: 8 })
  .filter((w) => /^[a-zA-Zé陳美花子😀🙌]/.test(w))
const textLine = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '))
const messageText = fc
  .array(fc.oneof({ weight: 9, arbitrary: textLine }, { weight: 1, arbitrary: fc.constant('') }), { minLength: 1, maxLength: 4 })
  .map((lines) => lines.join('\n').replace(/^\n+|\n+$/g, ''))
  .filter((text) => text !== '')
const author = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '))
const notice = fc.constantFrom('Tom added Ellie', 'Ellie left', 'Nadia joined using this group\'s invite link')

interface Draft {
  author: string
  text: string
  system: boolean
  step: number
}
const draft: fc.Arbitrary<Draft> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ author, text: messageText, system: fc.constant(false), step: fc.nat(3 * 86400) }) },
  { weight: 1, arbitrary: fc.record({ author: fc.constant(''), text: notice, system: fc.constant(true), step: fc.nat(3 * 86400) }) },
)

/** Chronological messages starting on a day over 12, so d/m vs m/d is decidable. */
function chat(withSeconds: boolean): fc.Arbitrary<ChatMessage[]> {
  return fc.tuple(fc.integer({ min: 2001, max: 2098 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 13, max: 28 }), fc.array(draft, { minLength: 1, maxLength: 25 }))
    .map(([year, month, day, drafts]) => {
      let time = Date.UTC(year, month - 1, day, 8)
      return drafts.map((d) => {
        const date = new Date(time).toISOString().slice(0, 19)
        time += (withSeconds ? d.step : d.step - (d.step % 60)) * 1000
        return { date, author: d.author, text: d.text, kind: d.system ? 'system' : 'message' } as ChatMessage
      })
    })
}

function expectRoundTrip(result: ChatParseResult, messages: ChatMessage[], systemAuthor: string): void {
  expect(result.ok).toBe(true)
  if (!result.ok) return
  expect(result.messages).toEqual(messages.map((m) => (m.kind === 'system' ? { ...m, author: systemAuthor } : m)))
}

describe('parse(render(messages)) round-trips', () => {
  const whatsAppFormats: WhatsAppFormat[] = ['android-dmy-24h', 'android-mdy-12h', 'android-ymd-zh', 'ios-dmy-24h', 'ios-mdy-12h', 'ios-dotted']
  test.each(whatsAppFormats)('WhatsApp %s', (format) => {
    const ios = format.startsWith('ios')
    fc.assert(fc.property(chat(FORMATS_WITH_SECONDS.has(format)), fc.boolean(), (messages, crlf) => {
      const text = renderWhatsApp(messages, format, { crlf, bom: crlf, groupName: 'Trip 🏔' })
      expectRoundTrip(parseChatExport(text), messages, ios ? 'Trip 🏔' : '')
    }), { numRuns: 300 })
  })

  const lineFormats: LineFormat[] = ['mobile-en', 'mobile-en-12h', 'mobile-zh-TW', 'desktop-en']
  test.each(lineFormats)('LINE %s', (format) => {
    fc.assert(fc.property(chat(false), fc.boolean(), (messages, crlf) => {
      expectRoundTrip(parseChatExport(renderLine(messages, format, { crlf, bom: crlf })), messages, '')
    }), { numRuns: 300 })
  })
})
