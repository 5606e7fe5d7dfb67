/**
 * Every NAME.txt in the shared fixture folder must parse to exactly NAME.txt.expected.json;
 * new fixtures are picked up automatically. The folder defaults to ../shared/fixtures/chat-exports
 * beside the repository and can be moved with CHAT_EXPORT_FIXTURES.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parseChatExport, parseChatExportStream } from '../../../api/chat-import/parseChatExport'
import { summarize } from './summary'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const fixtureDir = resolve(repoRoot, process.env.CHAT_EXPORT_FIXTURES ?? '../shared/fixtures/chat-exports')
const fixtures = readdirSync(fixtureDir).filter((name) => name.endsWith('.txt')).sort()

function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

describe('chat-export fixtures', () => {
  test('the fixture folder is found and not empty', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  test.each(fixtures)('%s matches its expected JSON', (name) => {
    const text = readFileSync(join(fixtureDir, name), 'utf8')
    const expected = JSON.parse(readFileSync(join(fixtureDir, `${name}.expected.json`), 'utf8'))
    expect(summarize(parseChatExport(text))).toEqual(expected)
  })

  // Byte input and streams split anywhere (inside CRLF, inside multi-byte characters) must
  // give exactly what the whole string gives.
  test.each(fixtures)('%s parses the same from bytes and from small chunks', async (name) => {
    const bytes = new Uint8Array(readFileSync(join(fixtureDir, name)))
    const whole = parseChatExport(new TextDecoder().decode(bytes))
    expect(parseChatExport(bytes)).toEqual(whole)
    for (const size of [1, 2, 3, 7, 64]) {
      expect(await parseChatExportStream(chunksOf(bytes, size))).toEqual(whole)
    }
  })
})
