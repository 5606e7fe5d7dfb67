export type ChatPlatform = 'whatsapp' | 'line'

/** One record of an export. `date` is local wall-clock time, `YYYY-MM-DDTHH:MM:SS`, no zone. */
export interface ChatMessage {
  date: string
  author: string
  text: string
  kind: 'message' | 'system'
}

export type ChatParseError = 'NotAChatExport' | 'EmptyChatExport'

export type ChatParseResult =
  | {
      ok: true
      platform: ChatPlatform
      /** Messages and system lines, in file order. */
      messages: ChatMessage[]
      /** Distinct message authors in order of their first message; system lines never add a name. */
      speakers: string[]
      messageCount: number
      systemCount: number
    }
  | { ok: false; error: ChatParseError }

/** Push-style parser: feed decoded text in any chunking, then call `end()` once. */
export interface ChatExportParser {
  push(chunk: string): void
  end(): ChatParseResult
}
