// Uploaded chat exports (spec §2 "Upload chat history", §5 chat import): 1 to 3 .txt files within the size limit, in
// whatever encoding they were written, each parsed as it is decoded. A file that cannot be read is marked with the
// reason and the others of the batch go on.
import { badRequest } from '../../http/errors'
import { readChatExport } from '../decodeExport'
import type { ChatParseResult } from '../parseChatExport'

export const MAX_FILES = 3
const NAME_MAX = 255

/** Why a file of a batch is not used: over the size limit, not text in any encoding, or text but not an export. */
export type FileProblem = 'TooLarge' | 'NotText' | 'NotAChatExport'

export interface UploadedExport {
  fileName: string
  bytes: Uint8Array
  /** Null when the file was not read (too large). */
  result: ChatParseResult | null
  problem: FileProblem | null
  /** The problem in words, for the API's callers. */
  message: string | null
}

/** An upload that is a chat export. */
export type ParsedExport = UploadedExport & { result: Extract<ChatParseResult, { ok: true }>; problem: null }

export const isParsed = (e: UploadedExport): e is ParsedExport => e.problem === null

/** Spec §3 Chat-history analysis result; each erroneous file also says why. */
export interface NameAnalysis {
  hasError: boolean
  erroneousFiles: { fileName: string; reason: FileProblem; message: string }[]
  names: string[]
}

export function formatBytes(n: number): string {
  const [value, unit] = n >= 1024 ** 2 ? [n / 1024 ** 2, 'MB'] : n >= 1024 ? [n / 1024, 'KB'] : [n, 'B']
  return `${Math.round(value * 10) / 10} ${unit}`
}

const fileNameOf = (file: File) => (file.name || 'unnamed').slice(0, NAME_MAX)

/** The checks of the batch as a whole: how many files, and their names. */
export function checkUploadLimits(files: File[]): void {
  if (!files.length) throw badRequest('files is required')
  if (files.length > MAX_FILES) throw badRequest(`at most ${MAX_FILES} files`)
  for (const file of files) {
    const name = fileNameOf(file)
    if (!/\.txt$/i.test(name)) throw badRequest(`${name}: only .txt files can be uploaded`)
  }
}

/** Reads one file of the batch: over the limit it is not read at all; otherwise decoded (any encoding) and parsed. */
export async function readExport(file: File, maxBytes: number): Promise<UploadedExport> {
  const fileName = fileNameOf(file)
  const problem = (reason: FileProblem, message: string, bytes = new Uint8Array(0)): UploadedExport =>
    ({ fileName, bytes, result: null, problem: reason, message: `${fileName} ${message}` })
  if (file.size > maxBytes) return problem('TooLarge', `is larger than ${formatBytes(maxBytes)}`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const read = readChatExport(bytes)
  if (!read.ok) return problem('NotText', 'is not a text file')
  if (!read.result.ok) return { ...problem('NotAChatExport', 'does not have the correct chat history format', bytes), result: read.result }
  return { fileName, bytes, result: read.result, problem: null, message: null }
}

/** The distinct message authors of the files that are chat exports, in order of first appearance. */
export function analyzeNames(exports: UploadedExport[]): NameAnalysis {
  const erroneousFiles = exports
    .filter((e) => !isParsed(e))
    .map((e) => ({ fileName: e.fileName, reason: e.problem!, message: e.message! }))
  const names = new Set<string>()
  for (const { result } of exports.filter(isParsed)) for (const speaker of result.speakers) names.add(speaker)
  return { hasError: erroneousFiles.length > 0, erroneousFiles, names: [...names] }
}

/** Why a real upload with unusable files is refused: the files of each reason, named. */
export function describeProblems(files: NameAnalysis['erroneousFiles']): string {
  const names = (reason: FileProblem) => files.filter((f) => f.reason === reason).map((f) => f.fileName).join(', ')
  return [
    files.some((f) => f.reason === 'NotAChatExport') && `These files do not have the correct chat history format: ${names('NotAChatExport')}`,
    ...files.filter((f) => f.reason !== 'NotAChatExport').map((f) => f.message),
  ]
    .filter(Boolean)
    .join('; ')
}
