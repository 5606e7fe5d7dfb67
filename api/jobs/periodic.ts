// Work every instance repeats on a timer (housekeeping). Each task runs at start and then every so often, never
// overlapping itself; a failure is logged and the task simply runs again at its next turn. Every instance runs
// its own tasks, so a task must be safe to run on several at once (one statement, or rows claimed with
// `for update skip locked`). The queue of durable jobs is for work that must finish once; this is for work that
// may be repeated any number of times.

export interface PeriodicTask {
  /** Starts the log line of a round that did something: `${name}: ${count}`. */
  name: string
  everyMs: number
  /** One round; returns how many things it handled. */
  run(): Promise<number | void>
}

export interface Periodic {
  /** Runs every task once more (each after its round in progress, if any) and resolves when all have run. */
  runAll(): Promise<void>
  /** Stops the timers and waits for rounds in progress, so the database can be closed right after. */
  stop(): Promise<void>
}

export function startPeriodic(tasks: PeriodicTask[], log: (s: string) => void): Periodic {
  const last = new Map<PeriodicTask, Promise<void>>()
  /** Rounds of each task started or waiting to start. */
  const pending = new Map<PeriodicTask, number>()

  function round(task: PeriodicTask): Promise<void> {
    pending.set(task, (pending.get(task) ?? 0) + 1)
    const next = (last.get(task) ?? Promise.resolve()).then(async () => {
      try {
        const count = await task.run()
        if (count) log(`${task.name}: ${count}`)
      } catch (e) {
        log(`${task.name} failed: ${(e as Error).message}`)
      } finally {
        pending.set(task, pending.get(task)! - 1)
      }
    })
    last.set(task, next)
    return next
  }

  for (const task of tasks) void round(task)
  const timers = tasks.map((task) => {
    // A round still going when the next is due is not queued behind: the next tick will do.
    const timer = setInterval(() => void (pending.get(task) || round(task)), task.everyMs)
    // Housekeeping never keeps a process alive on its own.
    timer.unref?.()
    return timer
  })

  return {
    async runAll() {
      await Promise.all(tasks.map(round))
    },
    async stop() {
      for (const timer of timers) clearInterval(timer)
      await Promise.all(last.values())
    },
  }
}

/**
 * Repeats `one` (which handles at most `size` things and says how many it did) until a round does fewer: a sweep of a
 * long backlog in short transactions, none holding many rows for long. Returns the total.
 */
export async function inBatches(size: number, one: (size: number) => Promise<number>): Promise<number> {
  let total = 0
  for (;;) {
    const done = await one(size)
    total += done
    if (done < size) return total
  }
}
