/** The fixtures' expected-JSON view of a parse result. */
import type { ChatParseResult } from '../../../api/chat-import/types'

export function summarize(result: ChatParseResult): unknown {
  if (!result.ok) return { error: true }
  const messages = result.messages
    .filter((m) => m.kind === 'message')
    .map(({ date, author, text }) => ({ date, author, text }))
  return {
    platform: result.platform,
    speakers: result.speakers,
    messageCount: result.messageCount,
    systemCount: result.systemCount,
    firstMessages: messages.slice(0, 3),
    lastMessages: messages.slice(-2),
  }
}
