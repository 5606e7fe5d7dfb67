/** Variants from the formats notes that the shared fixtures do not cover. */
import { describe, expect, test } from 'vitest'
import { parseChatExport, parseChatExportStream } from '../../../api/chat-import/parseChatExport'
import { parseLineExport } from '../../../api/chat-import/parseLineExport'
import { parseWhatsAppExport } from '../../../api/chat-import/parseWhatsAppExport'
import { renderLine } from '../../../api/chat-import/renderChatExport'
import type { ChatMessage, ChatParseResult } from '../../../api/chat-import/types'

/** [date, author, text, kind] per record, compact enough to read in a table. */
function rows(result: ChatParseResult): Array<[string, string, string, string]> {
  if (!result.ok) throw new Error(result.error)
  return result.messages.map((m) => [m.date, m.author, m.text, m.kind])
}

describe('WhatsApp headers', () => {
  test.each([
    ['es, NBSP inside p. m.', '20/6/2017, 8:28\u00a0p.\u00a0m. - Lucía: voy\n', '2017-06-20T20:28:00', 'Lucía', 'voy'],
    ['es, plain a. m.', '21/6/2017, 9:05 a. m. - Lucía: hola\n', '2017-06-21T09:05:00', 'Lucía', 'hola'],
    ['spaced date with trailing dot', '15. 1. 2024. 21:05 - Ana: bok\n', '2024-01-15T21:05:00', 'Ana', 'bok'],
    ['Finnish "klo" and dotted time', '15.1.2024 klo 21.05 - Aino: moi\n', '2024-01-15T21:05:00', 'Aino', 'moi'],
    ['ko period before hour', '2024/1/15 오후 9:05 - 민수: 안녕\n', '2024-01-15T21:05:00', '민수', '안녕'],
    ['ja period glued to hour', '2024/01/15 午後9:05 - 陽子: 出発します\n', '2024-01-15T21:05:00', '陽子', '出発します'],
    ['iOS dotted without comma', '[23.09.2016 17:00:28] Max: hallo\n', '2016-09-23T17:00:28', 'Max', 'hallo'],
    ['12 AM is midnight', '1/15/24, 12:05\u202fAM - A: late\n', '2024-01-15T00:05:00', 'A', 'late'],
    ['12 PM is noon', '1/15/24, 12:05\u202fPM - A: noon\n', '2024-01-15T12:05:00', 'A', 'noon'],
    ['Buddhist-era year', '15/01/2567, 10:00 - A: x\n', '2024-01-15T10:00:00', 'A', 'x'],
    ['no space after the colon', '15/01/2024, 21:05 - Bob:Hi there\n', '2024-01-15T21:05:00', 'Bob', 'Hi there'],
    ['iOS non-contact "~ name"', '[1/15/24, 9:05:12\u202fPM] ~\u202fNadia: hi\n', '2024-01-15T21:05:12', '~\u202fNadia', 'hi'],
    ['embedding marks around a phone number', '[1/15/24, 9:06:12\u202fPM] \u202a+44\u00a07700\u00a0900123\u202c: hey\n', '2024-01-15T21:06:12', '+44\u00a07700\u00a0900123', 'hey'],
  ])('%s', (_, text, date, author, body) => {
    expect(rows(parseWhatsAppExport(text))).toEqual([[date, author, body, 'message']])
  })
})

describe('WhatsApp records', () => {
  test('only a complete header starts a record; look-alike lines continue the message', () => {
    const text = '15/01/2024, 21:05 - Dana: plan\n12/04/24 at 10:00 we meet\n[15/01/2024, 21:05]glued\n15/01/2024, 21:05: x\n15/01/2024, 21:06 - Dana: ok\n'
    expect(rows(parseWhatsAppExport(text))).toEqual([
      ['2024-01-15T21:05:00', 'Dana', 'plan\n12/04/24 at 10:00 we meet\n[15/01/2024, 21:05]glued\n15/01/2024, 21:05: x', 'message'],
      ['2024-01-15T21:06:00', 'Dana', 'ok', 'message'],
    ])
  })

  test('a notice whose quoted group name contains ": " stays a notice', () => {
    const text = '15/01/2024, 21:05 - Tom changed the subject to "Trip: Oslo"\n'
    expect(rows(parseWhatsAppExport(text))).toEqual([['2024-01-15T21:05:00', '', 'Tom changed the subject to "Trip: Oslo"', 'system']])
  })

  test('iOS: LRM-prefixed call and attachment placeholders are messages, attributed notices are not', () => {
    const text = [
      '\u200e[1/15/24, 9:05:12\u202fPM] Dana: \u200eMissed voice call',
      '\u200e[1/15/24, 9:05:30\u202fPM] Dana: \u200e<attached: 00000012-PHOTO-2024-01-15-21-05-30.jpg>',
      '[1/15/24, 9:06:12\u202fPM] Boris: \u200eBoris created group “Trip”',
    ].join('\r\n')
    const result = parseWhatsAppExport(text)
    expect(rows(result).map((r) => r[3])).toEqual(['message', 'message', 'system'])
    expect(result.ok && result.speakers).toEqual(['Dana'])
  })

  test('lone CR line endings and blank lines inside a message', () => {
    const text = '15/01/2024, 21:05 - A: one\r\rtwo\r\r15/01/2024, 21:06 - B: three\r'
    expect(rows(parseWhatsAppExport(text))).toEqual([
      ['2024-01-15T21:05:00', 'A', 'one\n\ntwo', 'message'],
      ['2024-01-15T21:06:00', 'B', 'three', 'message'],
    ])
  })

  test('the first line break sets the style: in CRLF text a lone CR is a character', () => {
    const text = '15/01/2024, 21:05 - A: one\r\ntwo\rstill two\r\n15/01/2024, 21:06 - B: three\r\n'
    expect(rows(parseWhatsAppExport(text)).map((r) => r[2])).toEqual(['one\ntwo\rstill two', 'three'])
  })

  test('day/month order from the number that goes backwards within a year', () => {
    const text = '05/01/2024, 10:00 - A: x\n06/01/2024, 10:00 - A: y\n01/02/2024, 10:00 - A: z\n'
    expect(rows(parseWhatsAppExport(text)).map((r) => r[0])).toEqual(['2024-01-05T10:00:00', '2024-01-06T10:00:00', '2024-02-01T10:00:00'])
  })

  test('day/month order from a day over 12 later in the file', () => {
    const text = '1/2/24, 10:00 - A: x\n1/3/24, 10:00 - A: y\n1/13/24, 10:00 - A: z\n'
    expect(rows(parseWhatsAppExport(text)).map((r) => r[0])).toEqual(['2024-01-02T10:00:00', '2024-01-03T10:00:00', '2024-01-13T10:00:00'])
  })

  test('in a file that contradicts itself, a date that only reads one way is read that way', () => {
    const text = '13/5/2024, 10:00 - A: x\n5/14/2024, 10:00 - A: y\n31/2/2024, 10:00 - A: not a date\n'
    expect(rows(parseWhatsAppExport(text))).toEqual([
      ['2024-05-13T10:00:00', 'A', 'x', 'message'],
      ['2024-05-14T10:00:00', 'A', 'y\n31/2/2024, 10:00 - A: not a date', 'message'],
    ])
  })

  test('day/month order from which number changes more often', () => {
    const text = '3/4/24, 10:00 - A: x\n3/5/24, 10:00 - A: y\n3/6/24, 10:00 - A: z\n'
    expect(rows(parseWhatsAppExport(text)).map((r) => r[0])).toEqual(['2024-03-04T10:00:00', '2024-03-05T10:00:00', '2024-03-06T10:00:00'])
  })
})

describe('LINE', () => {
  const header = '[LINE] Chat history with Mia\nSaved on: 2024/02/03 21:40\n\n'

  test.each([
    ['Buddhist-era date line, weekday settles the order', 'Wed, 03/07/2562 BE\n09:12\tMia\thi\n', '2019-07-03T09:12:00'],
    ['UK device: weekday says day first', 'Sun, 07/04/2024\n04:35PM\tMia\thi\n', '2024-04-07T16:35:00'],
    ['US device: weekday says month first', 'Sun, 04/07/2024\n4:35PM\tMia\thi\n', '2024-04-07T16:35:00'],
    ['zh-CN date line without brackets', '2024/5/31周五\n下午01:02\tMia\thi\n', '2024-05-31T13:02:00'],
    ['zh-TW full-width brackets with 週', '2024/01/02（週二）\n上午 10:00\tMia\thi\n', '2024-01-02T10:00:00'],
    ['ja 午前12 is midnight', '2024/03/30(土)\n午前12:03\tMia\thi\n', '2024-03-30T00:03:00'],
    ['spaced lowercase marker', '2024/01/30 Tue\n03:05 pm\tMia\thi\n', '2024-01-30T15:05:00'],
  ])('%s', (_, body, date) => {
    expect(rows(parseLineExport(header + body))).toEqual([[date, 'Mia', 'hi', 'message']])
  })

  test('desktop with single-space columns: first word is the name, two spaces an empty name, hour 24', () => {
    const text = '2024.7.6 土曜日\n10:00 Bob hi there\n10:01  Bob joined the group.\n24:53 Amy late\n'
    expect(rows(parseLineExport(text))).toEqual([
      ['2024-07-06T10:00:00', 'Bob', 'hi there', 'message'],
      ['2024-07-06T10:01:00', '', 'Bob joined the group.', 'system'],
      ['2024-07-06T00:53:00', 'Amy', 'late', 'message'],
    ])
  })

  test('single-tab lines are notices; a notice with a name column counts as a message', () => {
    const text = '2024/03/30(土)\n午後05:40\t花子がメッセージの送信を取り消しました\n10:00\tA\tアルバムを作成しました\n'
    expect(rows(parseLineExport(text)).map((r) => [r[1], r[3]])).toEqual([['', 'system'], ['A', 'message']])
  })

  test('a quoted message may contain date lines, records and blank lines', () => {
    const text = `${header}2024/01/30(Tue)\n09:12\tMia\t"look:\n2017/01/01(Sun)\n00:00\tA\told\n\n2020/02/29(Sat)\n13:00\tC\tsame"\n09:13\tAlex\tok\n`
    expect(rows(parseLineExport(text))).toEqual([
      ['2024-01-30T09:12:00', 'Mia', 'look:\n2017/01/01(Sun)\n00:00\tA\told\n\n2020/02/29(Sat)\n13:00\tC\tsame', 'message'],
      ['2024-01-30T09:13:00', 'Alex', 'ok', 'message'],
    ])
  })

  test('trailing blank lines inside quotes are dropped, a quote of only blank lines is empty', () => {
    const text = `${header}2024/01/30(Tue)\n09:12\tMia\t"text\n\n"\n09:13\tAlex\t"\n\n"\n`
    expect(rows(parseLineExport(text)).map((r) => r[2])).toEqual(['text', ''])
  })

  test('a line ending in a quote only closes the message if a record, date line or blank follows', () => {
    const text = `${header}2024/01/30(Tue)\n09:12\tMia\t"She said\n"hi"\nand left"\n09:13\tAlex\tok\n`
    expect(rows(parseLineExport(text)).map((r) => r[2])).toEqual(['She said\n"hi"\nand left', 'ok'])
  })

  test('a message that merely starts with a quote does not swallow the records after it', () => {
    const text = `${header}2024/01/30(Tue)\n09:12\tMia\t"Dune\n09:13\tAlex\tsaw "Dune" too\n09:14\tMia\tnice\n`
    expect(rows(parseLineExport(text)).map((r) => r[2])).toEqual(['"Dune', 'saw "Dune" too', 'nice'])
  })

  test('an unclosed quote is given up after the longest possible LINE message', () => {
    const filler = Array.from({ length: 2000 }, (_, i) => `09:${String(i % 60).padStart(2, '0')}\tAlex\tmessage number ${i}`)
    const text = `${header}2024/01/30(Tue)\n09:12\tMia\t"Dune\n${filler.join('\n')}\n09:14\tMia\tthe end "quote"\n`
    const result = parseLineExport(text)
    expect(result.ok && result.messageCount).toBe(2002)
  })

  test('a long export: many blocks, a line longer than a block, false quotes, marks and names across them', async () => {
    const authors = ['Mia', 'Alex Chen', '陳小美', 'Sam 😀', 'A']
    const messages: ChatMessage[] = []
    let time = Date.UTC(2024, 0, 30, 8)
    for (let i = 0; i < 9000; i++) {
      const date = new Date(time).toISOString().slice(0, 19)
      time += 60_000 * (1 + (i % 7))
      let text = `message ${i} "${i % 3 ? 'quoted' : ''}" end`
      if (i % 11 === 0) text += ' \u200e!'
      // Opens a quote that never closes: the lines after it are read again as records. A real
      // quoted message soon after it would close it instead, so those come later.
      if (i % 1700 === 0) text = `"Dune ${i}`
      else if (i % 13 === 0 && i % 1700 > 900) text = `line one ${i}\nline two`
      if (i === 4000) text = `${'long '.repeat(20_000)}tail`
      messages.push({ date, author: authors[i % authors.length], text, kind: 'message' })
    }
    const text = renderLine(messages, 'mobile-en', { crlf: true })
    const expected = messages.map((m) => ({ ...m, text: m.text.replace('\u200e', '') }))
    expect(rows(parseLineExport(text))).toEqual(rows({ ok: true, platform: 'line', messages: expected, speakers: [], messageCount: 0, systemCount: 0 }))
    const bytes = new TextEncoder().encode(text)
    const chunks = Array.from({ length: Math.ceil(bytes.length / 77_777) }, (_, i) => bytes.subarray(i * 77_777, (i + 1) * 77_777))
    expect(await parseChatExportStream(chunks)).toEqual(parseLineExport(text))
  })

  test('CRLF between records and bare LF inside quotes', () => {
    const text = `${header.replaceAll('\n', '\r\n')}2024/01/30(Tue)\r\n09:12\tMia\t"a\nb"\r\n09:13\tAlex\tok\r\n`
    expect(rows(parseLineExport(text)).map((r) => r[2])).toEqual(['a\nb', 'ok'])
  })
})

describe('recognising exports', () => {
  test.each([
    ['empty', ''],
    ['whitespace', ' \n\t\r\n  '],
    ['JSON', '{"messages": [{"from": "A", "text": "hi"}]}\n'],
    ['CSV', 'date,author,text\n2024-01-15 09:05:00,Alice,hi\n'],
    ['prose with a chat line further down', 'Dear diary,\n15/01/2024, 21:05 - Dana: hi\n'],
  ])('%s is not a chat export', (_, text) => {
    expect(parseChatExport(text)).toEqual({ ok: false, error: 'NotAChatExport' })
  })

  test('a LINE header without messages is an empty export', () => {
    expect(parseChatExport('[LINE] Chat history with Mia\nSaved on: 2024/02/03 21:40\n\n')).toEqual({ ok: false, error: 'EmptyChatExport' })
  })

  test('the platform follows the first line; BOM and blank lines before it are skipped', () => {
    const result = parseChatExport('\ufeff\r\n\r\n[15/01/2024, 21:05:12] Dana: hi\r\n')
    expect(result.ok && result.platform).toBe('whatsapp')
  })

  test('a stream split inside a CRLF and inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('15/01/2024, 21:05 - 陽子: 出発\r\nします\r\n15/01/2024, 21:06 - Dana: ok\r\n')
    const cut = [0, 27, 31, 44, 45, 46, bytes.length]
    const chunks = cut.slice(1).map((end, i) => bytes.subarray(cut[i], end))
    expect(rows(await parseChatExportStream(chunks))).toEqual([
      ['2024-01-15T21:05:00', '陽子', '出発\nします', 'message'],
      ['2024-01-15T21:06:00', 'Dana', 'ok', 'message'],
    ])
  })
})
