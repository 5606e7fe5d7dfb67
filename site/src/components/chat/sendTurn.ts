// One chat turn over the wire: the streamed reply (server-sent events), or the plain JSON reply of ?sse=false
// where a stream cannot be read (a buffering proxy, a browser without response streams, or the room opened with
// ?sse=false). Either way the caller learns the server's ids and files as soon as the server has them.
import { apiUrl } from '../../lib/api'
import { readSse } from '../../lib/sse'
import { leaveForLogin } from '../../lib/session'
import type { Allowance, ChatMessage } from './types'

export class SendError extends Error {
  constructor(readonly code: string | undefined, message: string, readonly status = 0) {
    super(message)
  }
}

export interface TurnRequest {
  conversationId: string
  characterId: string
  body: { text: string; currentDateTime: string; files: { id: string }[]; timeZone?: string; geoLocation?: { latitude: number; longitude: number } }
  stream: boolean
}

export interface TurnEvents {
  /** The server has stored both messages: its ids, the person's message with its served files, the new count. */
  started(info: { userMessage: ChatMessage; botMessageId: string; messageLimit?: Allowance; sources?: ChatMessage['sources'] }): void
  /** A crisis reply's help block, sent before any word of the reply. */
  help(block: string): void
  delta(text: string): void
  /**
   * The whole reply (and its help block, if any). With a stream it has been shown piece by piece already;
   * without one it arrives only here.
   */
  done(text: string, streamed: boolean, help: string | null): Promise<void> | void
}

/** Resolves true when the reply was seen to the end, false when the stream ended early (the caller polls). */
export async function sendTurn(req: TurnRequest, on: TurnEvents): Promise<boolean> {
  const path = `/chatbots/conversations/${req.conversationId}/character/${req.characterId}/chat`
  const res = await fetch(apiUrl(path, req.stream ? undefined : { sse: false }), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: req.stream ? 'text/event-stream' : 'application/json' },
    body: JSON.stringify(req.body),
  })
  if (res.status === 401) {
    // The session ended mid-chat: the message was not taken; it stays in the input (and its draft) for later.
    const leaving = leaveForLogin()
    if (leaving) return leaving
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null)
    throw new SendError(body?.error, body?.message ?? res.statusText, res.status)
  }
  // A JSON answer to a streamed request too: something on the way turned the stream into a plain reply.
  if (!req.stream || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = await res.json()
    on.started({ userMessage: data.newUserMessage, botMessageId: data.newChatbotMessage.id, messageLimit: data.messageLimit, sources: data.newChatbotMessage.sources })
    await on.done(data.newChatbotMessage.text, false, data.newChatbotMessage.help ?? null)
    return true
  }
  for await (const ev of readSse(res.body)) {
    const data = JSON.parse(ev.data)
    if (ev.event === 'start') on.started({ userMessage: data.userMessage, botMessageId: data.botMessageId, messageLimit: data.messageLimit, sources: data.sources })
    else if (ev.event === 'help') on.help(data.text)
    else if (ev.event === 'delta') on.delta(data.t)
    else if (ev.event === 'done') {
      await on.done(data.text, true, data.help ?? null)
      return true
    } else if (ev.event === 'error') throw new SendError(data.error, data.message)
  }
  return false
}

export interface FollowEvents {
  /** The stream starts over from the reply's first word: whatever was shown of it is replaced by what follows. */
  restart(): void
  help(block: string): void
  delta(text: string): void
}

/**
 * Follows a reply the page lost sight of (a dropped stream, a reload mid-reply), from whichever instance the request
 * reaches: resolves with the whole reply once it is done, null when the stream could not be followed to the end
 * (the caller polls instead); throws SendError when the reply failed.
 */
export async function followReply(
  conversationId: string,
  messageId: string,
  on: FollowEvents,
  signal: AbortSignal,
): Promise<{ text: string; help: string | null } | null> {
  const res = await fetch(apiUrl(`/chatbots/conversations/${conversationId}/messages/${messageId}/stream`), {
    credentials: 'same-origin',
    headers: { accept: 'text/event-stream' },
    signal,
  })
  if (res.status === 404) throw new SendError('NotFound', 'Message not found', 404)
  if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) return null
  for await (const ev of readSse(res.body)) {
    const data = JSON.parse(ev.data)
    if (ev.event === 'start') on.restart()
    else if (ev.event === 'help') on.help(data.text)
    else if (ev.event === 'delta') on.delta(data.t)
    else if (ev.event === 'done') return { text: data.text, help: data.help ?? null }
    else if (ev.event === 'error') throw new SendError(data.error, data.message)
  }
  return null
}
