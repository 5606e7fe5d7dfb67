/**
 * Reads an uploaded export whatever its encoding. Exports are mostly UTF-8, but some phones and
 * desktop apps write UTF-16 (with or without a byte-order mark) or a legacy code page (Big5,
 * GBK, Shift_JIS, Latin-1). The order: a byte-order mark; the zero bytes every ASCII character
 * has in UTF-16 (timestamps are ASCII, so every export has plenty); strict UTF-8, which almost
 * never accepts text in another encoding; then the encodings a detector (chardet, a port of
 * ICU's) ranks likeliest, each decoded strictly. The text is parsed as it is decoded, so a large
 * file never exists as one string; a decoding that fails part-way is dropped and the next tried.
 */
import { analyse } from 'chardet'
import { createChatExportParser } from './parseChatExport'
import type { ChatParseResult } from './types'

/** Bytes decoded per step. */
const DECODE_STEP = 1 << 20
/** Bytes looked at to guess an encoding. */
const SAMPLE = 1 << 18
/** Share of two-byte units with a zero byte on one side (and almost none on the other) that means UTF-16. */
const UTF16_ZERO_SHARE = 0.1
/** Text with more C0 control characters than this share of its first step is a binary file. */
const CONTROL_SHARE = 0.01
/** Well-formed non-ASCII characters per broken sequence for UTF-8 with a few broken bytes. */
const MOSTLY_UTF8 = 5
/** Detector answers below this confidence are not worth a try. */
const MIN_CONFIDENCE = 10

export type ReadExport = { ok: true; encoding: string; result: ChatParseResult } | { ok: false; reason: 'NotText' }

/** Decodes and parses `bytes`; NotText when no encoding reads them as text. */
export function readChatExport(bytes: Uint8Array): ReadExport {
  for (const candidate of candidateEncodings(bytes)) {
    const result = parseAs(bytes, candidate)
    if (result) return { ok: true, encoding: candidate.encoding, result }
  }
  return { ok: false, reason: 'NotText' }
}

interface Candidate {
  encoding: string
  /** A broken sequence is replaced rather than refused (the detector's UTF-8 for a file with a stray byte). */
  lenient?: boolean
}

/** The encodings to try, most likely first; lazily, since the first usually reads the file. */
export function* candidateEncodings(bytes: Uint8Array): Generator<Candidate> {
  const bom = bomEncoding(bytes)
  if (bom) {
    // A byte-order mark is a statement: nothing else is tried.
    yield { encoding: bom }
    return
  }
  const utf16 = utf16ByZeros(bytes.subarray(0, SAMPLE))
  if (utf16) {
    yield { encoding: utf16 }
    return
  }
  // UTF-16 has been ruled out, and no other text encoding has NUL bytes.
  if (bytes.subarray(0, SAMPLE).includes(0)) return
  yield { encoding: 'utf-8' }
  if (mostlyUtf8(bytes.subarray(0, SAMPLE))) yield { encoding: 'utf-8', lenient: true }
  const tried = new Set(['utf-8'])
  for (const match of analyse(bytes.subarray(0, SAMPLE))) {
    if (match.confidence < MIN_CONFIDENCE) break
    const encoding = decoderLabel(match.name)
    if (!encoding || tried.has(encoding)) continue
    tried.add(encoding)
    yield { encoding }
  }
}

export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  return null
}

/**
 * UTF-8 with a stray broken byte (a file cut mid-character, an editor's slip): its characters are far more often
 * well-formed multi-byte sequences than broken ones. Text in a code page is the other way round, since its
 * non-ASCII bytes seldom happen to form UTF-8 sequences.
 */
export function mostlyUtf8(sample: Uint8Array): boolean {
  const text = new TextDecoder('utf-8').decode(sample)
  let broken = 0
  let wide = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0xfffd) broken++
    else if (c >= 0x80) wide++
  }
  return wide >= broken * MOSTLY_UTF8
}

/** UTF-16LE puts the zero byte of an ASCII character second, UTF-16BE first. */
export function utf16ByZeros(sample: Uint8Array): string | null {
  let even = 0
  let odd = 0
  const length = sample.length & ~1
  for (let i = 0; i < length; i += 2) {
    if (sample[i] === 0) even++
    if (sample[i + 1] === 0) odd++
  }
  const units = length / 2
  if (units === 0) return null
  // A CJK character may have a zero low byte (U+4E00), so the other side is allowed a few.
  if (odd >= units * UTF16_ZERO_SHARE && even * 8 < odd) return 'utf-16le'
  if (even >= units * UTF16_ZERO_SHARE && odd * 8 < even) return 'utf-16be'
  return null
}

/** The WHATWG label TextDecoder knows for a detector's name, or null for one it cannot decode. */
export function decoderLabel(name: string): string | null {
  // WHATWG decodes Latin-1 as windows-1252, a superset; GB18030 is the superset of GBK and GB2312.
  const label = name.toLowerCase() === 'iso-8859-1' ? 'windows-1252' : name.toLowerCase()
  try {
    return new TextDecoder(label).encoding
  } catch {
    return null
  }
}

/** The parse of `bytes` decoded as `candidate`, or null when they are not text in it. */
function parseAs(bytes: Uint8Array, candidate: Candidate): ChatParseResult | null {
  const decoder = new TextDecoder(candidate.encoding, { fatal: !candidate.lenient })
  const parser = createChatExportParser()
  try {
    for (let at = 0; at < bytes.length; at += DECODE_STEP) {
      const text = decoder.decode(bytes.subarray(at, at + DECODE_STEP), { stream: true })
      if (!isText(text, at === 0)) return null
      parser.push(text)
    }
    const rest = decoder.decode()
    if (!isText(rest, false)) return null
    parser.push(rest)
  } catch {
    return null
  }
  return parser.end()
}

/** No NUL anywhere; in the first step, hardly any other control character. */
function isText(text: string, first: boolean): boolean {
  if (text.includes('\u0000')) return false
  if (!first || text.length === 0) return true
  const controls = text.match(/[\u0001-\u0008\u000b\u000e-\u001f\u007f]/g)?.length ?? 0
  return controls <= text.length * CONTROL_SHARE
}
