// Shared by the chat API tests and bench/chat.ts: a signed-up person with a ready character and a conversation
// (characters are inserted directly; their API lives elsewhere), and a reader for the chat's event stream.
import type { TestApp } from '../../helpers/testApp'
import type { Sql } from '../../../api/db/database'

export const NOW_TEXT = 'Sunday 2026-11-22 10:30:00'

export async function insertCharacter(sql: Sql, userId: string, opts: { ready?: boolean; prompt?: string | null; name?: string } = {}) {
  const [row] = await sql<{ id: string }[]>`
    insert into characters (user_id, name, is_ready, prompt)
    values (${userId}, ${opts.name ?? 'Ideal Self'}, ${opts.ready ?? true},
            ${opts.prompt === undefined ? 'You are Mei, the calm and brave ideal self of the person.' : opts.prompt})
    returning id`
  return row.id
}

export interface ChatSetup {
  cookie: string
  userId: string
  characterId: string
  conversationId: string
  /** `/conversations/{id}/character/{characterId}` under /chatbots. */
  path: string
}

export async function startChat(app: TestApp, opts: { ready?: boolean; prompt?: string | null } = {}): Promise<ChatSetup> {
  const { cookie, user } = await app.signUp()
  const characterId = await insertCharacter(app.ctx.sql, user.id, opts)
  const created = await app.json('POST', '/chatbots/conversations', { cookie, body: { name: `Ideal Self ${new Date().toISOString()}` } })
  if (created.status !== 200) throw new Error(`creating a conversation failed: ${created.status} ${JSON.stringify(created.body)}`)
  const conversationId = created.body.id
  return { cookie, userId: user.id, characterId, conversationId, path: `/chatbots/conversations/${conversationId}/character/${characterId}` }
}

export interface StreamEvent {
  event: string
  data: any
  /** performance.now() when the event's last line arrived. */
  at: number
}

/** The events of a text/event-stream body (WHATWG framing: blank line ends an event, ":" lines are comments). */
export async function* readEvents(body: ReadableStream<Uint8Array | string>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder()
  let buffer = ''
  let event = 'message'
  let data: string[] = []
  for await (const chunk of body) {
    // Through app.handle Elysia's chunks are still strings; over a socket they are bytes.
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    const lines = buffer.split(/\r\n|\r|\n/)
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (line === '') {
        if (data.length) yield { event, data: JSON.parse(data.join('\n')), at: performance.now() }
        event = 'message'
        data = []
      } else if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
    }
  }
}

export async function allEvents(res: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const e of readEvents(res.body!)) events.push(e)
  return events
}

/**
 * Waits until no memory extraction of `app` is queued or running. With a model, each saved reply queues one, and
 * its JSON call would otherwise take a reply a test scripted for the next chat message.
 */
export async function memoryExtractionsIdle(app: TestApp, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const [row] = await app.ctx.sql<{ open: number }[]>`
      select count(*)::int as open from jobs where kind = 'extract-memories' and status in ('PENDING', 'RUNNING')`
    if (row.open === 0) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('memory extraction did not settle')
}
