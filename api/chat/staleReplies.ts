// Replies whose writer is gone. The process streaming a reply marks it alive every few seconds; when the marks
// stop (the process was killed, the machine lost) the reply would otherwise stay PENDING and empty forever. On
// start and every little while, any process fails such replies the way a model failure does (spec §4 "Chat
// send"): the reply and the message it answered are removed and the message is given back to the allowance,
// so the page polling for it gets a 404 and shows the failure dialog, and a page reading its stream from any
// instance gets the failure as its last event. A regenerated reply gets back the version it was replacing.
import type { Sql } from '../db/database'
import type { ErrorBody } from '../http/errors'
import type { ReplyRelay } from './replyRelay'
import type { LimitPeriod } from '../config'
import { periodMs } from '../limits/messageAllowance'

export const HEARTBEAT_MS = 10_000
/** Three missed marks: long enough that a busy process is never mistaken for a dead one. */
export const WRITER_GONE_MS = 45_000
const SWEEP_MS = 30_000

/** What the readers of a reply failed here are told: its writer is gone, as a model that stopped answering. */
export const WRITER_GONE: ErrorBody = {
  statusCode: 502,
  error: 'BotResponseFailureException',
  message: 'No response was returned from the model',
}

/**
 * Marks a reply as being written inside the transaction that makes it PENDING. A regenerated or re-sent reply keeps
 * the old row and its old `created_at`, so between that commit and the writer's first mark another instance's
 * sweep would take it for abandoned; marked in the same transaction, it never looks unmarked.
 */
export async function markWriting(tx: Sql, messageId: string) {
  await tx`
    insert into reply_heartbeats (message_id) values (${messageId})
    on conflict (message_id) do update set beat_at = now()`
}

export interface ReplyWatch {
  /** Marks the reply alive until `done` settles. */
  track(messageId: string, done: Promise<unknown>): void
  /** Fails the replies whose writer is gone; returns how many. */
  sweep(): Promise<number>
  start(): void
  stop(): Promise<void>
}

export function createReplyWatch(
  sql: Sql,
  opts: {
    period: LimitPeriod
    log?: (s: string) => void
    goneMs?: number
    heartbeatMs?: number
    sweepMs?: number
    relay?: Pick<ReplyRelay, 'failed' | 'announce' | 'sweep'>
  },
): ReplyWatch {
  const live = new Set<string>()
  const goneMs = opts.goneMs ?? WRITER_GONE_MS
  const periodSeconds = periodMs(opts.period) / 1000
  let timers: ReturnType<typeof setInterval>[] = []
  let running: Promise<unknown> = Promise.resolve()

  /** Marks written at once, not queued behind a sweep or each other: under a burst of sends a queued first mark
   * could come after the grace period, and another instance would fail a reply that is being written. */
  const writes = new Set<Promise<unknown>>()
  function write(work: () => Promise<unknown>): Promise<unknown> {
    const w = work().catch((e) => opts.log?.(`Reply watch: ${(e as Error).message}`))
    writes.add(w)
    void w.finally(() => writes.delete(w))
    return w
  }

  async function beat() {
    if (!live.size) return
    await sql`update reply_heartbeats set beat_at = now() where message_id in ${sql([...live])}`
  }

  async function sweep(): Promise<number> {
    // This process's own marks first: a reply it has just started must never look unmarked to its own sweep.
    await Promise.all([...writes])
    const failed = await sql.begin(async (tx) => {
      // skip locked: several processes may sweep at once; each stale reply is failed by exactly one.
      const stale = await tx<{ id: string; user_id: string; conversation_id: string; xid: string; version: number }[]>`
        select b.id, b.user_id, b.conversation_id, b.xmin::text as xid, b.version from messages b
        where b.role = 'ASSISTANT' and b.status = 'PENDING'
          and b.created_at < now() - ${goneMs} * interval '1 millisecond'
          and not exists (select 1 from reply_heartbeats h
                          where h.message_id = b.id and h.beat_at > now() - ${goneMs} * interval '1 millisecond')
        order by b.created_at limit 100
        for update of b skip locked`
      for (const reply of stale) {
        // A regenerated reply whose writer died: the version it replaced comes back, as a failed regeneration
        // in the writing process restores it; only the regeneration is given back.
        const [previous] = await tx`
          delete from message_versions where message_id = ${reply.id} and version = ${reply.version - 1}
          returning text, help_text, sources`
        if (previous) {
          await tx`
            update messages set text = ${previous.text}, help_text = ${previous.help_text}, sources = ${previous.sources === null ? null : tx.json(previous.sources)},
              status = 'COMPLETE', version = ${reply.version - 1}
            where id = ${reply.id}`
          await tx`
            update users set message_count = greatest(message_count - 1, 0)
            where id = ${reply.user_id} and subscription_type <> 'PREMIUM'`
          continue
        }
        // The question was written in the same transaction as the empty reply, so it carries the same xmin.
        const [question] = await tx<{ created_at: Date }[]>`
          delete from messages
          where conversation_id = ${reply.conversation_id} and user_id = ${reply.user_id} and role = 'USER' and xmin::text = ${reply.xid}
          returning created_at`
        await tx`delete from messages where id = ${reply.id}`
        // Given back only within the period it was counted in, as a model failure is (chat/messageCount.ts).
        if (question)
          await tx`
            update users set message_count = greatest(message_count - 1, 0)
            where id = ${reply.user_id} and subscription_type <> 'PREMIUM'
              and ${question.created_at} >= message_reset_at - make_interval(secs => ${periodSeconds})`
      }
      await opts.relay?.failed(tx as unknown as Sql, stale.map((r) => r.id), WRITER_GONE)
      return stale.map((r) => r.id)
    })
    await opts.relay?.announce(failed)
    await opts.relay?.sweep()
    return failed.length
  }

  function guarded(work: () => Promise<unknown>) {
    running = running.then(work).catch((e) => opts.log?.(`Reply watch: ${(e as Error).message}`))
    return running
  }

  return {
    track(messageId, done) {
      live.add(messageId)
      // The reply may already be gone (a model failure removes it at once): then there is nothing to mark.
      const marked = write(() => sql`
        insert into reply_heartbeats (message_id) select id from messages where id = ${messageId} on conflict do nothing`)
      void done.finally(() => {
        live.delete(messageId)
        // After the mark is in: a reply finished at once (the offline model, ?sse=false) would otherwise have its
        // mark removed before it was written, and a fresh mark left behind would keep a later regeneration of it
        // from ever looking abandoned.
        write(async () => {
          await marked
          await sql`delete from reply_heartbeats where message_id = ${messageId}`
        })
      })
    },
    sweep,
    start() {
      void guarded(async () => {
        const failed = await sweep()
        if (failed) opts.log?.(`Replies left unfinished by a stopped process, failed and refunded: ${failed}`)
      })
      timers = [
        setInterval(() => write(beat), opts.heartbeatMs ?? HEARTBEAT_MS),
        setInterval(() => void guarded(sweep), opts.sweepMs ?? SWEEP_MS),
      ]
    },
    async stop() {
      for (const t of timers) clearInterval(t)
      timers = []
      await running
      await Promise.all([...writes])
    },
  }
}
