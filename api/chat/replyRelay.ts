// A reply readable from every instance while one of them writes it. The writing process keeps its in-memory feed
// (replyFeed.ts) for its own readers; on a shared database it also copies every entry, unmerged and in order,
// into reply_chunks and sends a notice, so a reader on another instance gets the same deltas in the same order and
// then the outcome. A reader that joins late gets everything so far first. Without a shared database (PGlite,
// one process) the feed is only ever read here.
import type { Sql } from '../db/database'
import { CHANNELS, MAYBE_MISSED, type Bus } from '../db/bus'
import type { ErrorBody } from '../http/errors'
import type { FeedEntry, FeedItem, ReplyFeed } from './replyFeed'

export type ReplyOutcome = { ok: true; text: string; help: string | null } | { ok: false; error: ErrorBody }

export type RelayItem = FeedItem | { outcome: ReplyOutcome }

export interface ReplyRelay {
  /** Makes a reply this process writes readable everywhere, until `outcome` settles (and a while after). */
  publish(messageId: string, feed: ReplyFeed, outcome: Promise<ReplyOutcome>): void
  /**
   * The reply's help block and deltas from wherever it is being written (all so far, then each new one), then its
   * outcome; `{ idle: true }` after `idleMs` without news. A finished reply is given whole.
   */
  read(messageId: string, idleMs: number, signal?: AbortSignal): AsyncGenerator<RelayItem>
  /** Tells the readers of replies failed by the stale-reply sweep (inside its transaction). */
  failed(tx: Sql, messageIds: string[], error: ErrorBody): Promise<void>
  /** After `failed`'s transaction committed. */
  announce(messageIds: string[]): Promise<void>
  /** Drops the chunks of replies that ended a while ago. */
  sweep(): Promise<void>
}

/** How long the chunks of an ended reply stay readable, for readers that come late. */
const KEEP_MINUTES = 5
/** A reply that vanished (failed by its writer) gets this long for its error chunk to arrive. */
const VANISHED_GRACE_MS = 1_000

const NOT_FOUND: ErrorBody = { statusCode: 404, error: 'NotFound', message: 'Message not found' }

type ChunkRow = { seq: number; kind: 'delta' | 'help' | 'done' | 'error'; body: string }

function itemOf(row: ChunkRow): RelayItem {
  switch (row.kind) {
    case 'delta':
      return { delta: row.body }
    case 'help':
      return { help: row.body }
    case 'done':
      return { outcome: { ok: true, ...(JSON.parse(row.body) as { text: string; help: string | null }) } }
    case 'error':
      return { outcome: { ok: false, error: JSON.parse(row.body) as ErrorBody } }
  }
}

export function createReplyRelay(sql: Sql, bus: Bus, log: (s: string) => void = console.error): ReplyRelay {
  const local = new Map<string, { feed: ReplyFeed; outcome: Promise<ReplyOutcome> }>()

  async function insert(messageId: string, rows: { seq: number; kind: ChunkRow['kind']; body: string }[]) {
    await sql`insert into reply_chunks ${sql(rows.map((r) => ({ message_id: messageId, ...r })))} on conflict do nothing`
    await bus.publish(CHANNELS.reply, messageId)
  }

  /** Copies the feed into reply_chunks as it grows: one insert per group of entries that came while the last was written. */
  async function copy(messageId: string, feed: ReplyFeed, outcome: Promise<ReplyOutcome>) {
    let seq = 0
    try {
      // A regenerated reply keeps its message id; the chunks of its earlier version go first.
      await sql`delete from reply_chunks where message_id = ${messageId}`
      for await (const batch of feed.batches())
        await insert(
          messageId,
          batch.map((e: FeedEntry) => ('help' in e ? { seq: ++seq, kind: 'help', body: e.help } : { seq: ++seq, kind: 'delta', body: e.delta })),
        )
      const end = await outcome
      await insert(messageId, [
        end.ok
          ? { seq: ++seq, kind: 'done', body: JSON.stringify({ text: end.text, help: end.help }) }
          : { seq: ++seq, kind: 'error', body: JSON.stringify(end.error) },
      ])
    } catch (e) {
      // Readers elsewhere fall back to the saved message (they look at it whenever a heartbeat is due).
      log(`Relaying reply ${messageId} failed: ${(e as Error).message}`)
      await outcome
    }
  }

  async function* readLocal(feed: ReplyFeed, outcome: Promise<ReplyOutcome>, idleMs: number, signal?: AbortSignal): AsyncGenerator<RelayItem> {
    for await (const item of feed.read(idleMs, signal)) yield item
    if (signal?.aborted) return
    yield { outcome: await outcome }
  }

  type SavedReply = { status: string; text: string; help_text: string | null }

  /** The saved reply, given whole: for one that ended before any chunk of it was read (or was never relayed). */
  function* whole(row: SavedReply): Generator<RelayItem> {
    const help = row.help_text
    if (help) yield { help }
    const body = help && row.text.startsWith(help) ? row.text.slice(help.length).replace(/^\n\n/, '') : row.text
    if (body) yield { delta: body }
    yield { outcome: { ok: true, text: row.text, help } }
  }

  async function* readStored(messageId: string, idleMs: number, signal?: AbortSignal): AsyncGenerator<RelayItem> {
    let seq = 0
    let news = false
    let wake: (() => void) | null = null
    const unsubscribe = bus.subscribe(CHANNELS.reply, (payload) => {
      if (payload !== messageId && payload !== MAYBE_MISSED) return
      news = true
      wake?.()
    })
    const wait = (ms: number) =>
      new Promise<boolean>((resolve) => {
        if (news || signal?.aborted) return resolve(news)
        const settle = () => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', settle)
          wake = null
          resolve(news)
        }
        const timer = setTimeout(settle, ms)
        signal?.addEventListener('abort', settle)
        wake = settle
      })
    try {
      let lookAtMessage = true
      let vanishedSince = 0
      while (!signal?.aborted) {
        news = false
        const rows = await sql<ChunkRow[]>`
          select seq, kind, body from reply_chunks where message_id = ${messageId} and seq > ${seq} order by seq`
        for (const row of rows) {
          seq = row.seq
          const item = itemOf(row)
          yield item
          if ('outcome' in item) return
        }
        if (rows.length) continue
        if (lookAtMessage) {
          lookAtMessage = false
          // No (more) chunks: the reply may have ended already, or its relay failed; the saved message says.
          const [row] = await sql<SavedReply[]>`select status, text, help_text from messages where id = ${messageId}`
          if (row?.status === 'COMPLETE') {
            // Chunks read before: only the outcome is missing (its text is whole, so nothing is lost).
            if (seq === 0) yield* whole(row)
            else yield { outcome: { ok: true, text: row.text, help: row.help_text } }
            return
          }
          if (!row) {
            // Removed: its writer failed it, and the error chunk is on its way; or it was deleted.
            vanishedSince ||= Date.now()
            if (Date.now() - vanishedSince >= VANISHED_GRACE_MS) {
              yield { outcome: { ok: false, error: NOT_FOUND } }
              return
            }
            await wait(VANISHED_GRACE_MS)
            lookAtMessage = true
            continue
          }
        }
        if (!(await wait(idleMs)) && !signal?.aborted) {
          yield { idle: true }
          lookAtMessage = true
        }
      }
    } finally {
      unsubscribe()
    }
  }

  return {
    publish(messageId, feed, outcome) {
      local.set(messageId, { feed, outcome })
      const copied = bus.shared ? copy(messageId, feed, outcome) : outcome.then(() => {})
      void copied.finally(() => {
        if (local.get(messageId)?.feed === feed) local.delete(messageId)
      })
    },
    read(messageId, idleMs, signal) {
      const here = local.get(messageId)
      return here ? readLocal(here.feed, here.outcome, idleMs, signal) : readStored(messageId, idleMs, signal)
    },
    async failed(tx, messageIds, error) {
      if (!messageIds.length) return
      await tx`
        insert into reply_chunks (message_id, seq, kind, body)
        select id, coalesce((select max(seq) from reply_chunks c where c.message_id = id), 0) + 1, 'error', ${JSON.stringify(error)}
        from unnest(${tx.array(messageIds)}::uuid[]) as failed (id)
        on conflict do nothing`
    },
    async announce(messageIds) {
      for (const id of messageIds) await bus.publish(CHANNELS.reply, id)
    },
    async sweep() {
      await sql`
        delete from reply_chunks c where c.created_at < now() - make_interval(mins => ${KEEP_MINUTES})
          and not exists (select 1 from messages m where m.id = c.message_id and m.status = 'PENDING')`
    },
  }
}
