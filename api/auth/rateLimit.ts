// Failed sign-in throttling per account and per address (fixed window, in this process).
export class FailureLimiter {
  private hits = new Map<string, { count: number; until: number }>()
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  blocked(key: string, now = Date.now()): boolean {
    const h = this.hits.get(key)
    if (!h || h.until <= now) return false
    return h.count >= this.max
  }

  fail(key: string, now = Date.now()) {
    const h = this.hits.get(key)
    if (!h || h.until <= now) this.hits.set(key, { count: 1, until: now + this.windowMs })
    else h.count++
    if (this.hits.size > 50_000) this.sweep(now)
  }

  clear(key: string) {
    this.hits.delete(key)
  }

  private sweep(now: number) {
    for (const [k, h] of this.hits) if (h.until <= now) this.hits.delete(k)
  }
}
