// Messages between the processes that share one database: PostgreSQL's LISTEN/NOTIFY when DATABASE_URL is set
// (every instance hears every notice, its own included); on the embedded database there is only this process, so
// notices stay in it. Payloads are short (an id, a name); what changed is read from the tables themselves.
import type { Database } from './database'

/** Delivered to every handler when the listening connection came back: notices may have been missed meanwhile. */
export const MAYBE_MISSED = '*'

export const CHANNELS = {
  /** A reply has new chunks (payload: the reply's message id). */
  reply: 'idealself_reply',
  /** Admins changed editable content or site texts (payload: what changed). */
  content: 'idealself_content',
} as const

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS]

export interface Bus {
  /** Sends a notice to every process (this one included). */
  publish(channel: Channel, payload: string): Promise<void>
  /** Calls `handler` with each payload until the returned function is called. */
  subscribe(channel: Channel, handler: (payload: string) => void): () => void
  /** True when notices come from other processes too (PostgreSQL). */
  shared: boolean
  close(): Promise<void>
}

export async function createBus(db: Database, log: (s: string) => void = () => {}): Promise<Bus> {
  const handlers = new Map<Channel, Set<(payload: string) => void>>()
  const dispatch = (channel: Channel, payload: string) => {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(payload)
      } catch (e) {
        log(`Notice handler on ${channel}: ${(e as Error).message}`)
      }
    }
  }
  const subscribe = (channel: Channel, handler: (payload: string) => void) => {
    let set = handlers.get(channel)
    if (!set) handlers.set(channel, (set = new Set()))
    set.add(handler)
    return () => void set.delete(handler)
  }

  if (db.kind === 'embedded')
    return {
      shared: false,
      subscribe,
      async publish(channel, payload) {
        queueMicrotask(() => dispatch(channel, payload))
      },
      async close() {},
    }

  // Listening starts before the instance serves anything, so no reader can query before its notices would come.
  const listening = await Promise.all(
    Object.values(CHANNELS).map((channel) => {
      let connected = false
      return db.sql.listen(
        channel,
        (payload) => dispatch(channel, payload),
        () => {
          // postgres.js listens again by itself after a lost connection; whatever was sent meanwhile is unknown.
          if (connected) dispatch(channel, MAYBE_MISSED)
          connected = true
        },
      )
    }),
  )
  return {
    shared: true,
    subscribe,
    async publish(channel, payload) {
      await db.sql.notify(channel, payload)
    },
    async close() {
      await Promise.all(listening.map((l) => l.unlisten().catch(() => {})))
    },
  }
}
