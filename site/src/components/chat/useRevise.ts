// Regenerate the last reply, or edit the last message and resend it: the bubble fills with the new reply as it
// streams; on any failure the turn is shown as it was, the allowance given back, and the error dialog of spec §8.
import { apiUrl } from '../../lib/api'
import { readSse } from '../../lib/sse'
import { browserTimeZone } from '../../lib/timeZone'
import type { Allowance, ChatMessage } from './types'

class ReviseError extends Error {
  constructor(readonly code: string | undefined, message: string) {
    super(message)
  }
}

interface Options {
  conversationId: string
  characterId: string
  premium: boolean
  currentDateTime: () => string
  setMessages: (update: (list: ChatMessage[]) => ChatMessage[]) => void
  setAllowance: (update: (a: Allowance) => Allowance) => void
  setAnswering: (on: boolean) => void
  /** Shows the send-failure dialog for `code`/`message`. */
  fail: (code: string | undefined, message: string) => Promise<void>
}

export function useRevise(o: Options) {
  const patch = (id: string, change: Partial<ChatMessage>) => o.setMessages((list) => list.map((m) => (m.id === id ? { ...m, ...change } : m)))

  async function run(question: ChatMessage, reply: ChatMessage, newText: string | null) {
    const base = `/chatbots/conversations/${o.conversationId}/character/${o.characterId}`
    o.setAnswering(true)
    if (!o.premium) o.setAllowance((a) => ({ ...a, count: a.count + 1 }))
    if (newText !== null) patch(question.id, { text: newText })
    patch(reply.id, { text: '', help: null, pending: true, sources: null })
    let finished = false
    try {
      const res = await fetch(apiUrl(newText === null ? `${base}/regenerate` : `${base}/messages/${question.id}`), {
        method: newText === null ? 'POST' : 'PUT',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ currentDateTime: o.currentDateTime(), timeZone: browserTimeZone(), ...(newText === null ? {} : { text: newText }) }),
      })
      if (!res.ok || !res.body) {
        const body = await res.json().catch(() => null)
        throw new ReviseError(body?.error, body?.message ?? res.statusText)
      }
      for await (const ev of readSse(res.body)) {
        const data = JSON.parse(ev.data)
        if (ev.event === 'start') {
          patch(reply.id, { sources: data.sources, version: data.version })
          if (data.messageLimit) o.setAllowance(() => data.messageLimit)
        } else if (ev.event === 'help') {
          // The help block shows before any word of the reply, as with a new message.
          patch(reply.id, { help: data.text, text: `${data.text}\n\n` })
        } else if (ev.event === 'delta') {
          o.setMessages((list) => list.map((m) => (m.id === reply.id ? { ...m, text: m.text + data.t } : m)))
        } else if (ev.event === 'done') {
          finished = true
          patch(reply.id, { text: data.text, help: data.help ?? null, pending: false })
        } else if (ev.event === 'error') throw new ReviseError(data.error, data.message)
      }
      if (!finished) throw new ReviseError(undefined, 'The connection closed before the reply finished')
    } catch (e) {
      patch(question.id, { text: question.text })
      patch(reply.id, { text: reply.text, help: reply.help, sources: reply.sources, version: reply.version, pending: false })
      if (!o.premium) o.setAllowance((a) => ({ ...a, count: Math.max(0, a.count - 1) }))
      await o.fail(e instanceof ReviseError ? e.code : undefined, (e as Error).message)
    } finally {
      o.setAnswering(false)
    }
  }

  return {
    regenerate: (question: ChatMessage, reply: ChatMessage) => run(question, reply, null),
    edit: (question: ChatMessage, reply: ChatMessage, text: string) => run(question, reply, text),
  }
}
