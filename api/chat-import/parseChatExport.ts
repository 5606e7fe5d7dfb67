/**
 * Entry point for uploaded chat exports: recognises WhatsApp or LINE from the first line and
 * hands the text to that parser. Accepts a whole string, bytes, or a stream of chunks; never
 * throws on bad input (a file that is not an export gives `{ ok: false, error }`).
 */
import { createLineExportParser, isLineFirstLine } from './parseLineExport'
import { createWhatsAppExportParser, isWhatsAppFirstLine } from './parseWhatsAppExport'
import { isBlank } from './textScan'
import type { ChatExportParser, ChatParseResult } from './types'

export type { ChatExportParser, ChatMessage, ChatParseResult, ChatPlatform } from './types'

/** Enough for any title, BOM and leading blank lines; text without a line break by then is no export. */
const MAX_FIRST_LINE = 64 * 1024
/** Bytes decoded per step, so a large upload never exists as one string. */
const DECODE_STEP = 1 << 20

export function parseChatExport(input: string | Uint8Array): ChatParseResult {
  const parser = createChatExportParser()
  if (typeof input === 'string') {
    parser.push(input)
  } else {
    const decoder = new TextDecoder()
    for (let at = 0; at < input.length; at += DECODE_STEP) {
      parser.push(decoder.decode(input.subarray(at, at + DECODE_STEP), { stream: true }))
    }
    parser.push(decoder.decode())
  }
  return parser.end()
}

/** For request bodies and file streams: chunks may be text or UTF-8 bytes, split anywhere. */
export async function parseChatExportStream(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<ChatParseResult> {
  const parser = createChatExportParser()
  const decoder = new TextDecoder()
  for await (const chunk of chunks) {
    parser.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
  }
  parser.push(decoder.decode())
  return parser.end()
}

/** Buffers only until the first non-blank line is complete, then forwards everything. */
export function createChatExportParser(): ChatExportParser {
  let head = ''
  // Blank lines before this position in `head` have been looked at already.
  let lookFrom = 0
  let inner: ChatExportParser | null = null
  let rejected = false

  function choose(final: boolean): void {
    const start = firstLineStart(final)
    if (start < 0) {
      if (head.length > MAX_FIRST_LINE) rejected = true
      return
    }
    if (isWhatsAppFirstLine(head, start)) inner = createWhatsAppExportParser()
    else if (isLineFirstLine(head, start, lineEnd(head, start))) inner = createLineExportParser()
    else rejected = true
    inner?.push(head)
    head = ''
  }

  /** Where the first line with something on it starts; -1 while that line may be incomplete. */
  function firstLineStart(final: boolean): number {
    let start = lookFrom === 0 && head.charCodeAt(0) === 0xfeff ? 1 : lookFrom
    for (;;) {
      const end = lineEnd(head, start)
      if (end === head.length && !final) {
        lookFrom = start
        return -1
      }
      if (!isBlank(head, start, end) || end === head.length) return start
      start = end + 1
    }
  }

  return {
    push(chunk: string): void {
      if (inner !== null) inner.push(chunk)
      else if (!rejected) {
        head += chunk
        // Look again only when a line may have ended, so tiny chunks stay linear.
        if (chunk.includes('\n') || chunk.includes('\r')) choose(false)
        else if (head.length > MAX_FIRST_LINE) rejected = true
      }
    },
    end(): ChatParseResult {
      if (inner === null && !rejected) choose(true)
      return inner === null ? { ok: false, error: 'NotAChatExport' } : inner.end()
    },
  }
}


function lineEnd(text: string, start: number): number {
  let end = start
  while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++
  return end
}
