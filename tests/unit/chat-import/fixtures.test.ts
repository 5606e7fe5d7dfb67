/**
 * Every chat-export fixture NAME.txt must parse to exactly NAME.txt.expected.json; new fixtures are picked up
 * automatically (see tests/helpers/chatExportFixtures.ts for where they are looked for).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseChatExport, parseChatExportStream } from '../../../api/chat-import/parseChatExport'
import { summarize } from './summary'

import { chatExportFixtures } from '../../helpers/chatExportFixtures'

const paths = chatExportFixtures()
const fixtures = [...paths.keys()]

function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

describe('chat-export fixtures', () => {
  test('the fixture folder is found and not empty', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  test.each(fixtures)('%s matches its expected JSON', (name) => {
    const text = readFileSync(paths.get(name)!, 'utf8')
    const expected = JSON.parse(readFileSync(`${paths.get(name)!}.expected.json`, 'utf8'))
    expect(summarize(parseChatExport(text))).toEqual(expected)
  })

  // Byte input and streams split anywhere (inside CRLF, inside multi-byte characters) must
  // give exactly what the whole string gives.
  test.each(fixtures)('%s parses the same from bytes and from small chunks', async (name) => {
    const bytes = new Uint8Array(readFileSync(paths.get(name)!))
    const whole = parseChatExport(new TextDecoder().decode(bytes))
    expect(parseChatExport(bytes)).toEqual(whole)
    for (const size of [1, 2, 3, 7, 64]) {
      expect(await parseChatExportStream(chunksOf(bytes, size))).toEqual(whole)
    }
  })
})
