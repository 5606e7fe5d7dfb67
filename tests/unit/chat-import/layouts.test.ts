/**
 * Header layouts other chat-export parsers read, and LINE space-separated columns whose names have
 * spaces in them: labelled sets, each case with the records it must give.
 */
import { describe, expect, test } from 'vitest'
import { parseChatExport } from '../../../api/chat-import/parseChatExport'

const rows = (text: string) => {
  const result = parseChatExport(text)
  if (!result.ok) return result.error
  return result.messages.map((m) => [m.date, m.author, m.text, m.kind])
}

describe('WhatsApp: colon and bare forms, year in the middle', () => {
  test.each([
    ['dotted date and time, colon after the time', '13.06.18 21.25.15: a: m\n', '2018-06-13T21:25:15'],
    ['spaced dotted date with trailing dot, bare', '13. 6. 2018. 21:25:15 a: m\n', '2018-06-13T21:25:15'],
    ['month / year / day, bracketed', '[06/2018/13, 21:25:15] a: m\n', '2018-06-13T21:25:15'],
    ['month / year / day, android dash', '06/2018/13, 21:25 - a: m\n', '2018-06-13T21:25:00'],
    ['colon form, 24h without seconds', '13/06/2018, 21:25: a: m\n', '2018-06-13T21:25:00'],
    ['colon form, 12h marker', '6/13/18, 9:25 PM: a: m\n', '2018-06-13T21:25:00'],
    ['bare form, 12h marker', '6/13/18 9:25 pm a: m\n', '2018-06-13T21:25:00'],
    ['bare form, dashes in the date', '2018-06-13 21:25:15 a: m\n', '2018-06-13T21:25:15'],
    ['bare form, dotted time', '13.06.2018 21.25 a: m\n', '2018-06-13T21:25:00'],
    ['colon form with LRM before the date', '\u200e13.06.18 21.25.15: a: m\n', '2018-06-13T21:25:15'],
  ])('%s', (_label, text, date) => {
    expect(rows(text)).toEqual([[date, 'a', 'm', 'message']])
  })

  test.each([
    ['colon', (d: string, t: string) => `${d} ${t}: `],
    ['bare', (d: string, t: string) => `${d} ${t} `],
    ['bracketed, month/year/day', (d: string, t: string) => `[${d.replace(/^(\d+)\.(\d+)\.(\d+)$/, '$2/20$3/$1')}, ${t}] `],
  ])('%s lines after a valid one are records, never swallowed into it', (_label, head) => {
    const text = [`${head('13.06.18', '21:25:15')}Ana Lima: first`, 'more of the first', `${head('13.06.18', '21:26:00')}Rui: second`, `${head('14.06.18', '08:00:00')}Ana Lima: third`].join('\n')
    expect(rows(text)).toEqual([
      ['2018-06-13T21:25:15', 'Ana Lima', 'first\nmore of the first', 'message'],
      ['2018-06-13T21:26:00', 'Rui', 'second', 'message'],
      ['2018-06-14T08:00:00', 'Ana Lima', 'third', 'message'],
    ])
  })

  test('a colon-form file may hold notices; the encryption notice may open it', () => {
    const text = '13.06.18 21.25.15: Messages and calls are end-to-end encrypted. No one outside of this chat can read them.\n13.06.18 21.25.16: Ana: hi\n13.06.18 21.25.17: Rui left\n'
    expect(rows(text)).toEqual([
      ['2018-06-13T21:25:15', '', 'Messages and calls are end-to-end encrypted. No one outside of this chat can read them.', 'system'],
      ['2018-06-13T21:25:16', 'Ana', 'hi', 'message'],
      ['2018-06-13T21:25:17', '', 'Rui left', 'system'],
    ])
  })

  test.each([
    ['a bare-form line without a name in an android file', '15/01/2024, 10:00 - Bob: hi\n13.06.18 21:25 we met at the station\n', 'hi\n13.06.18 21:25 we met at the station'],
    ['a colon-form line without a name in an iOS file', '[15/01/2024, 10:00:00] Bob: hi\n13.06.18 21:25: remember the milk\n', 'hi\n13.06.18 21:25: remember the milk'],
  ])('%s stays text', (_label, text, body) => {
    expect(rows(text)).toEqual([['2024-01-15T10:00:00', 'Bob', body, 'message']])
  })

  test.each([
    ['colon', '13.06.18 21.25.15: a: m'],
    ['bare', '13. 6. 2018. 21:25:15 a: m'],
    ['month/year/day', '[06/2018/13, 21:25:15] a: m'],
  ])('a %s-form message after an android or iOS line is its own record', (_label, line) => {
    for (const first of ['12/06/2018, 10:00 - Bob: hi', '[12/06/2018, 10:00:00] Bob: hi']) {
      expect(rows(`${first}\n${line}\n`), first).toEqual([
        ['2018-06-12T10:00:00', 'Bob', 'hi', 'message'],
        ['2018-06-13T21:25:15', 'a', 'm', 'message'],
      ])
    }
  })

  test.each([
    ['a log file', '2024-01-15 10:00:00 INFO server started\n2024-01-15 10:00:01 INFO ready\n'],
    ['a diary starting with a date and time', '13.06.18 21:25 went for a walk\nit rained\n'],
    ['a three-digit middle number', '06/201/13, 21:25:15 - a: m\n'],
    ['a date that is none', '[13/2018/13, 21:25:15] a: m\n'],
  ])('%s is not an export', (_label, text) => {
    expect(rows(text)).toBe('NotAChatExport')
  })
})

describe('LINE: single-space columns learn the names from the file', () => {
  const day = '2024.05.11 Saturday\n'

  test.each([
    ['the English title', '[LINE] Chat history with foo bar\nSaved on: 2024/05/12 10:00\n\n', 'foo bar'],
    ['the zh-TW title', '[LINE] 與陳 小美的聊天記錄\n儲存日期：2024/05/12 10:00\n\n', '陳 小美'],
    ['the zh-CN title', '[LINE] 与王 芳的聊天记录\n保存日期：2024/05/12 10:00\n\n', '王 芳'],
    ['the Japanese title', '[LINE] 山田 花子とのトーク履歴\n保存日時：2024/05/12 10:00\n\n', '山田 花子'],
  ])('from %s', (_label, title, name) => {
    expect(rows(`${title}${day}12:00 ${name} hello there\n12:01 Mia ok\n`)).toEqual([
      ['2024-05-11T12:00:00', name, 'hello there', 'message'],
      ['2024-05-11T12:01:00', 'Mia', 'ok', 'message'],
    ])
  })

  test.each([
    ['a sticker', 'foo bar [Sticker]'],
    ['desktop Photos', 'foo bar Photos'],
    ['a call', 'foo bar ☎ Missed call'],
    ['a Japanese sticker', 'foo bar [スタンプ]'],
    ['a zh-TW photo', 'foo bar [照片]'],
  ])('from %s, even when it comes later in the file', (_label, line) => {
    const result = rows(`${day}12:00 foo bar hello\n12:01 ${line}\n`) as string[][]
    expect(result.map((r) => r[1])).toEqual(['foo bar', 'foo bar'])
    expect(result[0][2]).toBe('hello')
  })

  test.each([
    ['joined', 'foo bar joined the group.'],
    ['left', 'foo bar left the group.'],
    ['unsent', 'foo bar unsent a message.'],
    ['added (both names)', 'Mia Chen added foo bar to the group.'],
    ['zh-TW joined', 'foo bar已加入群組'],
    ['zh-CN recalled', 'foo bar撤回了一条消息'],
    ['ja joined', 'foo barがグループに参加しました'],
  ])('from a %s notice, which is a system line', (_label, notice) => {
    expect(rows(`${day}12:00 ${notice}\n12:01 foo bar hello\n`)).toEqual([
      ['2024-05-11T12:00:00', '', notice, 'system'],
      ['2024-05-11T12:01:00', 'foo bar', 'hello', 'message'],
    ])
  })

  test('the longest known name wins; a name the file never shows stays its first word', () => {
    const text = `[LINE] Chat history with foo\n\n${day}12:00 foo hi\n12:01 foo bar baz [Sticker]\n12:02 foo bar baz hello\n12:03 foo bar hello\n12:04 Amy Lee hey\n`
    expect((rows(text) as string[][]).map((r) => [r[1], r[2]])).toEqual([
      ['foo', 'hi'],
      ['foo bar baz', '[Sticker]'],
      ['foo bar baz', 'hello'],
      ['foo', 'bar hello'],
      ['Amy', 'Lee hey'],
    ])
  })

  test('speakers and counts follow the learned names', () => {
    const result = parseChatExport(`${day}12:00 foo bar hi\n12:01 foo bar [Sticker]\n12:02 Kenji Mori joined the group.\n12:03 Kenji Mori yo\n`)
    expect(result).toMatchObject({ ok: true, speakers: ['foo bar', 'Kenji Mori'], messageCount: 3, systemCount: 1 })
  })

  test('tab-separated files are untouched: a name column is the name', () => {
    expect(rows(`${day}12:00\tfoo\tbar hello\n12:01\tfoo bar\t[Sticker]\n`)).toEqual([
      ['2024-05-11T12:00:00', 'foo', 'bar hello', 'message'],
      ['2024-05-11T12:01:00', 'foo bar', '[Sticker]', 'message'],
    ])
  })
})
