// Uploaded chat exports (spec §2 "Upload chat history", §5 chat import): 1 to 3 .txt files within the size limit, in
// whatever encoding they were written. The files arrive in a staging folder (incoming.ts) and are read in a child
// process (exportProcess.ts). A file that cannot be read is marked with the reason and the others of the batch go on.
import { badRequest } from '../../http/errors'
import type { ExportSummary } from './exportTasks'
import { readExportsApart } from './exportProcess'
import type { IncomingFile } from './incoming'

export const MAX_FILES = 3

/** Why a file of a batch is not used: over the size limit, not text in any encoding, or text but not an export. */
export type FileProblem = 'TooLarge' | 'NotText' | 'NotAChatExport'

export interface UploadedExport {
  fileName: string
  /** The staged copy; null when it was not kept (too large). */
  path: string | null
  size: number
  sha256: string
  /** Null when the file was not read or is not an export. */
  summary: ExportSummary | null
  problem: FileProblem | null
  /** The problem in words, for the API's callers. */
  message: string | null
}

/** An upload that is a chat export. */
export type ParsedExport = UploadedExport & { path: string; summary: ExportSummary; problem: null }

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

/** The checks of the batch as a whole: how many files, and their names. */
export function checkUploadLimits(files: { fileName: string }[]): void {
  if (!files.length) throw badRequest('files is required')
  if (files.length > MAX_FILES) throw badRequest(`at most ${MAX_FILES} files`)
  for (const { fileName } of files) if (!/\.txt$/i.test(fileName)) throw badRequest(`${fileName}: only .txt files can be uploaded`)
}

/** Reads the staged files of a batch: one over the limit is not read at all; the others decoded (any encoding) and parsed. */
export async function readExports(files: IncomingFile[], maxBytes: number): Promise<UploadedExport[]> {
  const readable = files.filter((f) => f.path && !f.tooLarge)
  const readings = await readExportsApart(readable.map((f) => f.path!))
  return files.map((file) => {
    const { fileName, path, size, sha256 } = file
    const problem = (reason: FileProblem, message: string): UploadedExport =>
      ({ fileName, path, size, sha256, summary: null, problem: reason, message: `${fileName} ${message}` })
    if (file.tooLarge || !path) return problem('TooLarge', `is larger than ${formatBytes(maxBytes)}`)
    const reading = readings[readable.indexOf(file)]
    if (!reading.ok && reading.problem === 'NotText') return problem('NotText', 'is not a text file')
    if (!reading.ok) return problem('NotAChatExport', 'does not have the correct chat history format')
    return { fileName, path, size, sha256, summary: reading.summary, problem: null, message: null }
  })
}

/** The distinct message authors of the files that are chat exports, in order of first appearance. */
export function analyzeNames(exports: UploadedExport[]): NameAnalysis {
  const erroneousFiles = exports
    .filter((e) => !isParsed(e))
    .map((e) => ({ fileName: e.fileName, reason: e.problem!, message: e.message! }))
  const names = new Set<string>()
  for (const { summary } of exports.filter(isParsed)) for (const speaker of summary.speakers) names.add(speaker)
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
