import { expect, test } from 'vitest'
import { readSseData } from '../../../api/llm/sse'

function bodyOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece))
      controller.close()
    },
  })
}

async function events(body: ReadableStream<Uint8Array>) {
  const seen: string[] = []
  for await (const data of readSseData(body)) seen.push(data)
  return seen
}

const WIRE = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: message\nid: 7\ndata: line one\ndata:line two\n\ndata: {"b":"é"}\r\rdata: [DONE]\n\ndata: {"after":"done"}\n\n'
const EXPECTED = ['{"a":1}', 'line one\nline two', '{"b":"é"}', '[DONE]']

test('reads data events, joining data lines, skipping comments and other fields, stopping at [DONE]', async () => {
  expect(await events(bodyOf(WIRE))).toEqual(EXPECTED)
})

test('gives the same events however the bytes are split, even inside \\r\\n or a UTF-8 character', async () => {
  const bytes = new TextEncoder().encode(WIRE)
  for (let cut = 1; cut < bytes.length; cut++) {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut))
        controller.enqueue(bytes.slice(cut))
        controller.close()
      },
    })
    expect(await events(body)).toEqual(EXPECTED)
  }
})

test('keeps the last event of a stream that closes without a blank line', async () => {
  expect(await events(bodyOf('data: {"a":1}\n\ndata: {"b":2}'))).toEqual(['{"a":1}', '{"b":2}'])
  expect(await events(bodyOf('data: {"a":1}\n'))).toEqual(['{"a":1}'])
})
