/**
 * Exports in any encoding a phone or desktop app writes are read as the same chat: every fixture in
 * UTF-8 (with and without BOM) and UTF-16 (both byte orders, with and without BOM), and chats in the
 * legacy code pages of their languages (Big5, GBK/GB18030, Shift_JIS, EUC-KR, Windows-1252/Latin-1).
 * Files that are no text in any encoding are told apart from text that is not an export.
 */
import { readFileSync } from 'node:fs'
import iconv from 'iconv-lite'
import { describe, expect, test } from 'vitest'
import { readChatExport } from '../../../api/chat-import/decodeExport'
import { parseChatExport } from '../../../api/chat-import/parseChatExport'
import { chatExportFixtures } from '../../helpers/chatExportFixtures'

const paths = chatExportFixtures()
const textOf = (name: string) => readFileSync(paths.get(name)!, 'utf8').replace(/^\ufeff/, '')

const UNICODE_FORMS: [label: string, encode: (text: string) => Uint8Array][] = [
  ['UTF-8', (text) => iconv.encode(text, 'utf8')],
  ['UTF-8 with BOM', (text) => iconv.encode(text, 'utf8', { addBOM: true })],
  ['UTF-16LE with BOM', (text) => iconv.encode(text, 'utf16le', { addBOM: true })],
  ['UTF-16BE with BOM', (text) => iconv.encode(text, 'utf16be', { addBOM: true })],
  ['UTF-16LE without BOM', (text) => iconv.encode(text, 'utf16le')],
  ['UTF-16BE without BOM', (text) => iconv.encode(text, 'utf16be')],
]

function read(bytes: Uint8Array) {
  const read = readChatExport(bytes)
  if (!read.ok) throw new Error('not read as text')
  return read
}

describe('every fixture in every Unicode form parses as its UTF-8 original', () => {
  const cases = [...paths.keys()].flatMap((name) => UNICODE_FORMS.map(([label, encode]) => [name, label, encode] as const))
  test.each(cases)('%s as %s', (name, _label, encode) => {
    const text = textOf(name)
    expect(read(encode(text)).result).toEqual(parseChatExport(text))
  })
})

/** Chats written in the language of each code page, long enough to look like a real export. */
function lineChat(lines: string[][], title: string): string {
  const out = [`[LINE] ${title}`, 'Saved on: 2024/02/03 21:40', '', '2024/01/30(Tue)']
  lines.forEach(([author, text], i) => out.push(`${10 + (i % 12)}:${String((i * 7) % 60).padStart(2, '0')}\t${author}\t${text}`))
  return out.join('\r\n') + '\r\n'
}

function whatsAppChat(lines: string[][]): string {
  return lines.map(([author, text], i) => `15/01/2024, ${10 + (i % 12)}:${String((i * 7) % 60).padStart(2, '0')} - ${author}: ${text}`).join('\n') + '\n'
}

const repeat = <T,>(rows: T[], times: number) => Array.from({ length: times }, () => rows).flat()

const TRADITIONAL = repeat(
  [
    ['陳小美', '今天下班後要不要一起去吃火鍋？'],
    ['林志明', '好啊，我七點到，記得幫我訂位'],
    ['陳小美', '沒問題，我們約在捷運站出口見面吧'],
    ['林志明', '週末的登山計畫還照常嗎？天氣預報說會下雨'],
  ],
  5,
)
const SIMPLIFIED = repeat(
  [
    ['王小红', '你今天晚上有空吗？我们一起去看电影吧'],
    ['李明', '好的，我下班以后给你打电话'],
    ['王小红', '别忘了带上次借你的那本书'],
    ['李明', '知道了，周末见面的时候还给你，谢谢'],
  ],
  5,
)
const JAPANESE = repeat(
  [
    ['佐藤花子', '今日は仕事の後で一緒にご飯を食べませんか？'],
    ['田中太郎', 'いいですね。駅の前で七時に会いましょう'],
    ['佐藤花子', '了解です。楽しみにしています'],
  ],
  5,
)
const KOREAN = repeat(
  [
    ['김민지', '오늘 저녁에 같이 밥 먹을래?'],
    ['이준호', '좋아, 일곱 시에 역 앞에서 보자'],
    ['김민지', '알겠어, 이따 봐!'],
  ],
  5,
)
const WESTERN = repeat(
  [
    ['Hélène Dubois', 'Ça va ? On se retrouve au café près de la gare à midi'],
    ['José Martínez', '¡Claro! Llegaré un poco tarde, lo siento'],
    ['Hélène Dubois', "D'accord, je t'attends à la terrasse, il fait très beau aujourd'hui"],
    ['Jürgen Müller', 'Schöne Grüße aus München, bis später!'],
  ],
  4,
)

const LEGACY: [label: string, encoding: string, text: string][] = [
  ['Big5, LINE, Traditional Chinese', 'big5', lineChat(TRADITIONAL, 'Chat history with 林志明')],
  ['Big5, WhatsApp, Traditional Chinese', 'big5', whatsAppChat(TRADITIONAL)],
  ['GBK, WhatsApp, Simplified Chinese', 'gbk', whatsAppChat(SIMPLIFIED)],
  ['GBK, LINE, Simplified Chinese', 'gbk', lineChat(SIMPLIFIED, 'Chat history with 李明')],
  ['GB18030, WhatsApp, Simplified Chinese', 'gb18030', whatsAppChat(SIMPLIFIED)],
  ['Shift_JIS, LINE, Japanese', 'shift_jis', lineChat(JAPANESE, 'Chat history with 田中太郎')],
  ['EUC-KR, WhatsApp, Korean', 'euc-kr', whatsAppChat(KOREAN)],
  ['Latin-1, WhatsApp, French/Spanish/German', 'latin1', whatsAppChat(WESTERN)],
  ['Windows-1252, LINE, French/Spanish/German', 'windows-1252', lineChat(WESTERN, 'Chat history with Hélène Dubois')],
]

describe('legacy code pages are detected and decoded', () => {
  test.each(LEGACY)('%s', (_label, encoding, text) => {
    const read = readChatExport(iconv.encode(text, encoding))
    expect(read.ok && read.result).toEqual(parseChatExport(text))
  })

  test.each(LEGACY)('%s, in UTF-8 all along, is read as UTF-8', (_label, _encoding, text) => {
    expect(read(new TextEncoder().encode(text))).toMatchObject({ encoding: 'utf-8' })
  })

  test('the fixtures that fit a code page read the same in it', () => {
    for (const [name, encoding] of [
      ['line-android-zh-TW.txt', 'big5'],
      ['whatsapp-android-zh-CN-12h.txt', 'gbk'],
      ['line-ios-ja.txt', 'shift_jis'],
      ['whatsapp-android-en-24h.txt', 'latin1'],
    ]) {
      // What the code page cannot hold (emoji, direction marks) is what its encoder made of it.
      const text = iconv.decode(iconv.encode(textOf(name), encoding), encoding)
      expect(read(iconv.encode(text, encoding)).result, name).toEqual(parseChatExport(text))
    }
  })
})

describe('what is not text', () => {
  const NOT_TEXT: [label: string, bytes: Uint8Array][] = [
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0])],
    ['a JPEG', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])],
    ['a ZIP', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0x21, 0x6a, 0x50, 0x58, 0, 0, 0, 0])],
    ['a NUL in UTF-8 text', new TextEncoder().encode('15/01/2024, 10:00 - Dana: hi\u0000there\n')],
    ['control bytes', new Uint8Array(Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0x01 + (i % 7) : 0x41 + (i % 26))))],
    ['UTF-16 with a lone surrogate', new Uint8Array([0xff, 0xfe, 0x31, 0x00, 0x00, 0xd8, 0x32, 0x00])],
  ]
  test.each(NOT_TEXT)('%s is not text', (_label, bytes) => {
    expect(readChatExport(bytes)).toEqual({ ok: false, reason: 'NotText' })
  })

  test.each([
    ['prose', 'Dear diary, today was a long day.\nNothing much happened.\n'],
    ['CSV', 'date,author,text\n2024-01-15,Dana,hi\n'],
    ['empty', ''],
  ])('%s in UTF-16 is text, but no export', (_label, text) => {
    for (const encoding of ['utf16le', 'utf8']) {
      const read = readChatExport(iconv.encode(text, encoding, { addBOM: true }))
      expect(read).toMatchObject({ ok: true, result: { ok: false } })
    }
  })

  test('a UTF-8 export with one broken byte is still read as UTF-8, the byte replaced', () => {
    const text = textOf('whatsapp-android-en-24h.txt')
    const bytes = new TextEncoder().encode(text)
    const broken = new Uint8Array([...bytes.subarray(0, 200), 0xc3, ...bytes.subarray(200)])
    const result = read(broken)
    expect(result.encoding).toBe('utf-8')
    expect(result.result.ok && result.result.speakers).toEqual((parseChatExport(text) as any).speakers)
  })
})
