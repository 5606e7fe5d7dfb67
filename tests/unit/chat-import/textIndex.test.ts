/** The WebAssembly text index against a plain reading of the same text. */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  BLOCK, createTextIndex, findMark, indexLines, loadText, MAX_LINES, nameSlotOf, RECORD, rememberName, type TextIndex,
} from '../../../api/chat-import/textIndex'
import { assemble, WASM_SOURCES } from '../../../scripts/buildWasm'

const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** What indexLines should report for each whole line of `text`, given the names remembered. */
function expectedRecords(text: string, remembered: Map<number, string>): number[][] {
  const records: number[][] = []
  let start = 0
  for (let lf = text.indexOf('\n'); lf >= 0; lf = text.indexOf('\n', start)) {
    const line = text.slice(start, lf)
    const end = line.endsWith('\r') ? lf - 1 : lf
    let tab1 = -1
    let tab2 = -1
    let seconds = -1
    if (/^[0-9\u4e0a\u4e0b\u5348\uc624]/.test(line)) {
      const time = /^(\d{1,2}):([0-5]\d)\t/.exec(line)
      if (time && Number(time[1]) <= 23) seconds = Number(time[1]) * 3600 + Number(time[2]) * 60
      tab1 = line.indexOf('\t')
      tab2 = tab1 < 0 ? -1 : line.indexOf('\t', tab1 + 1)
    }
    let slot = -1
    if (tab2 >= 0) {
      const name = line.slice(tab1 + 1, tab2)
      if (remembered.get(nameSlotOf(name)) === name) slot = nameSlotOf(name)
    }
    let mark = -1
    for (let i = 0; i < line.length; i++) if (BIDI.test(line[i])) mark = start + i
    const quote = line.lastIndexOf('"')
    const at = (offset: number) => (offset < 0 ? -1 : start + offset)
    records.push([lf, end, at(tab1), at(tab2), seconds, slot, mark, at(quote)])
    start = lf + 1
  }
  return records
}

function indexed(index: TextIndex, text: string): number[][] {
  loadText(index, text, 0, text.length)
  const count = indexLines(index, text.length)
  return Array.from({ length: count }, (_, i) => Array.from(index.lines.subarray(i * RECORD, (i + 1) * RECORD)))
}

const NAMES = ['Ann', 'Bob Lee', '陳小美', '', 'A', 'Dana Whitfield-Longname', '\u200eMarcus']
const UNITS = [
  '0', '1', '2', '3', '5', '9', ':', '\t', '\n', '\r', '"', ' ', 'a', 'x', '上', '午', '오', '\u200e', '\u202b', '\u2069',
  '\u2010', '\u201c', '😅', '12:30\t', '23:59\t', '24:00\t', '9:05\t', '7:60\t', ...NAMES.map((n) => `\t${n}\t`),
]
const chatUnits = fc.array(fc.constantFrom(...UNITS), { maxLength: 400 }).map((parts) => parts.join(''))

describe('text index', () => {
  test('the committed binary is the build of textIndex.wat', async () => {
    for (const source of WASM_SOURCES) {
      const built = await assemble(source)
      expect(Buffer.from(readFileSync(source.replace(/\.wat$/, '.wasm'))).equals(Buffer.from(built))).toBe(true)
    }
  })

  test('line records match a plain reading of the text', () => {
    fc.assert(
      fc.property(chatUnits, fc.subarray(NAMES), (text, names) => {
        const index = createTextIndex()
        const remembered = new Map<number, string>()
        for (const name of names) {
          if (rememberName(index, name)) remembered.set(nameSlotOf(name), name)
        }
        expect(indexed(index, text)).toEqual(expectedRecords(text, remembered))
      }),
      { numRuns: 1500 },
    )
  })

  test('records of a block loaded from inside a text count from where it starts', () => {
    const text = `xx\n12:30\tAnn\t"hi"\u200e\r\n上午9:05\tBob\t\tyo\n`
    const index = createTextIndex()
    rememberName(index, 'Ann')
    loadText(index, text, 3, text.length)
    expect(indexLines(index, text.length - 3)).toBe(2)
    expect(Array.from(index.lines.subarray(0, 2 * RECORD))).toEqual([
      ...expectedRecords(text.slice(3), new Map([[nameSlotOf('Ann'), 'Ann']]))[0],
      ...expectedRecords(text.slice(3), new Map())[1],
    ])
  })

  test('at most MAX_LINES records per call; a line cut off by the block end has none', () => {
    const index = createTextIndex()
    const many = '10:00\tAnn\thi\n'.repeat(MAX_LINES + 5)
    loadText(index, many, 0, many.length)
    expect(indexLines(index, many.length)).toBe(MAX_LINES)
    loadText(index, 'one\ntwo', 0, 7)
    expect(indexLines(index, 7)).toBe(1)
  })

  test('the memory grows for a line longer than a block, and the names survive it', () => {
    const index = createTextIndex()
    rememberName(index, 'Ann')
    const text = `10:00\tAnn\t${'long '.repeat(BLOCK)}\u200f end\n11:00\tAnn\tok\n`
    expect(indexed(index, text)).toEqual(expectedRecords(text, new Map([[nameSlotOf('Ann'), 'Ann']])))
  })

  test('a full names area starts over rather than overflowing', () => {
    const index = createTextIndex()
    const names = Array.from({ length: 3000 }, (_, i) => `Person number ${i}`)
    for (const name of names) expect(rememberName(index, name)).toBe(true)
    const last = names[names.length - 1]
    expect(indexed(index, `10:00\t${last}\thi\n`)[0][5]).toBe(nameSlotOf(last))
    expect(rememberName(index, 'x'.repeat(20_000))).toBe(false)
  })

  test('findMark finds the first bidi control of a range, or its end', () => {
    const index = createTextIndex()
    const text = `abc\u200edef${'z'.repeat(40)}\u2066`
    loadText(index, text, 0, text.length)
    expect(findMark(index, 0, text.length)).toBe(3)
    expect(findMark(index, 4, text.length)).toBe(text.length - 1)
    expect(findMark(index, 4, text.length - 1)).toBe(text.length - 1)
    expect(findMark(index, 0, 2)).toBe(2)
  })
})
