import { afterEach, describe, expect, test, vi } from 'vitest'
import { inBatches, startPeriodic } from '../../../api/jobs/periodic'

/** A promise the test settles. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

afterEach(() => {
  vi.useRealTimers()
})

describe('startPeriodic', () => {
  test('runs every task at start, logs the rounds that did something, and stopping waits for a round in progress', async () => {
    const logged: string[] = []
    const slow = gate()
    let finished = false
    const periodic = startPeriodic(
      [
        { name: 'Things removed', everyMs: 60_000, run: async () => 3 },
        { name: 'Nothing to do', everyMs: 60_000, run: async () => 0 },
        { name: 'Slow', everyMs: 60_000, run: async () => { await slow.opened; finished = true } },
      ],
      (s) => logged.push(s),
    )
    let stopped = false
    const stopping = periodic.stop().then(() => (stopped = true))
    await settle()
    expect(stopped).toBe(false)
    slow.open()
    await stopping
    expect(finished).toBe(true)
    expect(logged).toEqual(['Things removed: 3'])
  })

  test('a failing round is logged and the task runs again at its next turn', async () => {
    const logged: string[] = []
    let calls = 0
    const periodic = startPeriodic(
      [{ name: 'Sweep', everyMs: 60_000, run: async () => { if (++calls === 1) throw new Error('storage unreachable'); return 1 } }],
      (s) => logged.push(s),
    )
    await periodic.runAll()
    await periodic.stop()
    expect(calls).toBe(2)
    expect(logged).toEqual(['Sweep failed: storage unreachable', 'Sweep: 1'])
  })

  test('a task never overlaps itself: turns that come while a round is still going are skipped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const rounds: ReturnType<typeof gate>[] = []
    let running = 0
    let most = 0
    const periodic = startPeriodic(
      [{
        name: 'Slow',
        everyMs: 1000,
        run: async () => {
          const round = gate()
          rounds.push(round)
          most = Math.max(most, ++running)
          await round.opened
          running--
        },
      }],
      () => {},
    )
    await settle()
    vi.advanceTimersByTime(10_000)
    await settle()
    expect(rounds).toHaveLength(1)
    rounds[0].open()
    await settle()
    vi.advanceTimersByTime(1000)
    await settle()
    expect(rounds).toHaveLength(2)
    rounds[1].open()
    await periodic.stop()
    expect(most).toBe(1)
  })
})

describe('inBatches', () => {
  test('repeats full batches until one comes short, and adds them up', async () => {
    const sizes = [10, 10, 4]
    let calls = 0
    expect(await inBatches(10, async () => sizes[calls++])).toBe(24)
    expect(calls).toBe(3)
    expect(await inBatches(10, async () => 0)).toBe(0)
  })
})
