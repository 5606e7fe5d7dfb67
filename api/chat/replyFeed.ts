// The hand-over between a reply's generation and the HTTP stream that shows it. The generation writes into the
// feed and never waits for a reader, so a client that disconnects (or reads slowly) cannot stall or cancel the
// model: the reply is still finished and saved (DESIGN §6), and the client polls for it.

export type FeedEntry = { delta: string } | { help: string }
export type FeedItem = FeedEntry | { idle: true }

export interface ReplyFeed {
  push(delta: string): void
  /** The help block a crisis reply opens with; readers get it as its own item, before the deltas that follow. */
  help(text: string): void
  /** No more deltas; readers finish once they have caught up. */
  close(): void
  /**
   * Every delta so far, then each new one as it comes; deltas that arrived while the reader was busy come as one.
   * `{ idle: true }` after `idleMs` without news (for a heartbeat). Ends when the feed closes or `signal` aborts.
   */
  read(idleMs: number, signal?: AbortSignal): AsyncGenerator<FeedItem>
  /** Every entry so far, then each group of new ones as they come, nothing merged; ends once the feed closes. */
  batches(): AsyncGenerator<FeedEntry[]>
}

export function replyFeed(): ReplyFeed {
  const entries: FeedEntry[] = []
  let closed = false
  let waiting: (() => void)[] = []
  const wakeAll = () => {
    const woken = waiting
    waiting = []
    for (const wake of woken) wake()
  }

  /** Resolves true on news, false after `ms` or when `signal` aborts. */
  const news = (ms: number, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const settle = (value: boolean) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      const onAbort = () => settle(false)
      const timer = setTimeout(() => settle(false), ms)
      signal?.addEventListener('abort', onAbort)
      waiting.push(() => settle(true))
    })

  return {
    push(delta) {
      entries.push({ delta })
      wakeAll()
    },
    help(text) {
      entries.push({ help: text })
      wakeAll()
    },
    close() {
      closed = true
      wakeAll()
    },
    async *read(idleMs, signal) {
      let seen = 0
      while (!signal?.aborted) {
        if (seen < entries.length) {
          const first = entries[seen]
          if ('help' in first) {
            seen++
            yield first
            continue
          }
          // Deltas that piled up while the reader was busy go out as one, up to the next help item.
          let end = seen
          while (end < entries.length && 'delta' in entries[end]) end++
          const delta = entries.slice(seen, end).map((e) => (e as { delta: string }).delta).join('')
          seen = end
          yield { delta }
        } else if (closed) {
          return
        } else if (!(await news(idleMs, signal)) && !signal?.aborted) {
          yield { idle: true }
        }
      }
    },
    async *batches() {
      let seen = 0
      for (;;) {
        if (seen < entries.length) {
          const batch = entries.slice(seen)
          seen = entries.length
          yield batch
        } else if (closed) return
        else await news(60_000)
      }
    },
  }
}
