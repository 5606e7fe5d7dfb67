// The heavy work of an import, on files on local disk: decoding and parsing the exports (any encoding), and
// measuring the person's style and people. It runs in a process of its own (exportProcess.ts), so a large export
// never holds up the server's other requests; the answers are small (names, counts, the measured figures).
import { readChatExport } from '../decodeExport'
import type { ChatMessage, ChatPlatform } from '../types'
import { measureChats, type MeasuredChats } from './analyzeChats'
import { keptAsChat, keptMessages, type KeptMessage } from './speakingStyle'

/** What an upload needs to know of one export. */
export interface ExportSummary {
  platform: ChatPlatform
  messageCount: number
  /** Distinct message authors in order of their first message. */
  speakers: string[]
  /** Messages each speaker wrote, in the order of `speakers`. */
  messagesBy: number[]
}

export type FileReading = { ok: true; summary: ExportSummary } | { ok: false; problem: 'NotText' | 'NotAChatExport' }

/** Reads each file in turn (one export's messages in memory at a time). */
export async function readExportFiles(paths: string[]): Promise<FileReading[]> {
  const readings: FileReading[] = []
  for (const path of paths) {
    const read = readChatExport(await Bun.file(path).bytes())
    if (!read.ok) readings.push({ ok: false, problem: 'NotText' })
    else if (!read.result.ok) readings.push({ ok: false, problem: 'NotAChatExport' })
    else {
      const { platform, messageCount, speakers } = read.result
      const sent = new Map(speakers.map((s) => [s, 0]))
      for (const m of read.result.messages) if (m.kind === 'message') sent.set(m.author, (sent.get(m.author) ?? 0) + 1)
      readings.push({ ok: true, summary: { platform, messageCount, speakers, messagesBy: speakers.map((s) => sent.get(s)!) } })
    }
  }
  return readings
}

export interface MeasureInput {
  files: { name: string; path: string }[]
  userName: string
  /** The person's own messages kept by earlier imports, oldest import first. */
  earlier: KeptMessage[][]
}

export type Measurement = { ok: true; measured: MeasuredChats; kept: KeptMessage[] } | { ok: false; error: string }

/** The style (on these chats and the earlier imports' messages) and people of an import's stored exports. */
export async function measureExports(input: MeasureInput): Promise<Measurement> {
  const chats: ChatMessage[][] = []
  for (const file of input.files) {
    const read = readChatExport(await Bun.file(file.path).bytes())
    if (!read.ok || !read.result.ok) return { ok: false, error: `${file.name} is not a chat export` }
    chats.push(read.result.messages)
  }
  const kept = keptMessages(chats, input.userName)
  const earlier = keptAsChat(input.earlier, input.userName, kept)
  return { ok: true, measured: measureChats(chats, input.userName, earlier), kept }
}

export type ExportTask = { kind: 'read'; paths: string[] } | ({ kind: 'measure' } & MeasureInput)

export function runExportTask(task: ExportTask): Promise<FileReading[] | Measurement> {
  return task.kind === 'read' ? readExportFiles(task.paths) : measureExports(task)
}
