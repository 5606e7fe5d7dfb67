// Uploaded chat exports (spec §2 "Upload chat history", §5 chat import): 1 to 3 .txt files of UTF-8 text within the
// size limit, each parsed as it is decoded so a large file never exists as one string.
import { badRequest } from '../../http/errors'
import { createChatExportParser, type ChatParseResult } from '../parseChatExport'

export const MAX_FILES = 3
const NAME_MAX = 255
const DECODE_STEP = 1 << 20

export interface UploadedExport {
  fileName: string
  bytes: Uint8Array
  result: ChatParseResult
}

/** An upload that is a chat export. */
export type ParsedExport = UploadedExport & { result: Extract<ChatParseResult, { ok: true }> }

export const isParsed = (e: UploadedExport): e is ParsedExport => e.result.ok

/** Spec §3 Chat-history analysis result. */
export interface NameAnalysis {
  hasError: boolean
  erroneousFiles: { fileName: string }[]
  names: string[]
}

export function formatBytes(n: number): string {
  const [value, unit] = n >= 1024 ** 2 ? [n / 1024 ** 2, 'MB'] : n >= 1024 ? [n / 1024, 'KB'] : [n, 'B']
  return `${Math.round(value * 10) / 10} ${unit}`
}

const fileNameOf = (file: File) => (file.name || 'unnamed').slice(0, NAME_MAX)

/** The checks that need no reading: how many files, their names and sizes. */
export function checkUploadLimits(files: File[], maxBytes: number): void {
  if (!files.length) throw badRequest('files is required')
  if (files.length > MAX_FILES) throw badRequest(`at most ${MAX_FILES} files`)
  for (const file of files) {
    const name = fileNameOf(file)
    if (!/\.txt$/i.test(name)) throw badRequest(`${name}: only .txt files can be uploaded`)
    if (file.size > maxBytes) throw badRequest(`${name} is larger than ${formatBytes(maxBytes)}`)
  }
}

/**
 * Decodes the file as strict UTF-8 and parses it in the same pass. Bytes that are not UTF-8, or a NUL character,
 * mean a binary file renamed to .txt: refused, since no chat export looks like that.
 */
export async function readExport(file: File): Promise<UploadedExport> {
  const fileName = fileNameOf(file)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const notText = badRequest(`${fileName} is not a text file`)
  const decode = (chunk?: Uint8Array) => {
    let text: string
    try {
      text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
    } catch {
      throw notText
    }
    if (text.includes('\u0000')) throw notText
    return text
  }
  const parser = createChatExportParser()
  for (let at = 0; at < bytes.length; at += DECODE_STEP) parser.push(decode(bytes.subarray(at, at + DECODE_STEP)))
  parser.push(decode())
  return { fileName, bytes, result: parser.end() }
}

/** The distinct message authors of the files that are chat exports, in order of first appearance. */
export function analyzeNames(exports: UploadedExport[]): NameAnalysis {
  const erroneousFiles = exports.filter((e) => !isParsed(e)).map((e) => ({ fileName: e.fileName }))
  const names = new Set<string>()
  for (const { result } of exports.filter(isParsed)) for (const speaker of result.speakers) names.add(speaker)
  return { hasError: erroneousFiles.length > 0, erroneousFiles, names: [...names] }
}
