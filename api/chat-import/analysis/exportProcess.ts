// Export tasks run in a child process, never on the server's own thread: parsing a 100 MB export and measuring its
// messages takes seconds of CPU and hundreds of megabytes, which on the server's thread stalled every other
// request and, with the garbage collector working through that heap, kept doing so after. A child has its own heap,
// runs on the other core, and returns its memory when it exits. At most two run at once (one per core); the next
// waits for a turn.
import { fileURLToPath } from 'node:url'
import type { ExportTask, FileReading, MeasureInput, Measurement } from './exportTasks'

const WORKER = fileURLToPath(new URL('./exportWorker.ts', import.meta.url))
const MAX_RUNNING = 2

let running = 0
const waiting: (() => void)[] = []

async function turn(): Promise<() => void> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  return () => {
    running--
    waiting.shift()?.()
  }
}

async function inChild(task: ExportTask, signal?: AbortSignal): Promise<unknown> {
  signal?.throwIfAborted()
  const done = await turn()
  try {
    signal?.throwIfAborted()
    // --smol: a heap collected more often, so the child's peak stays near what the parse keeps.
    const child = Bun.spawn([process.execPath, '--smol', WORKER], { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
    const stop = () => child.kill()
    signal?.addEventListener('abort', stop, { once: true })
    try {
      child.stdin.write(JSON.stringify(task))
      await child.stdin.end()
      const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
      signal?.throwIfAborted()
      if (code !== 0) throw new Error(`The export ${task.kind} process failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)
      return JSON.parse(out)
    } finally {
      signal?.removeEventListener('abort', stop)
    }
  } finally {
    done()
  }
}

/** Reads each file (any encoding) and sums it up, in a child process. */
export const readExportsApart = (paths: string[]) => inChild({ kind: 'read', paths }) as Promise<FileReading[]>

/** Measures an import's exports in a child process; ended with `signal`. */
export const measureExportsApart = (input: MeasureInput, signal?: AbortSignal) =>
  inChild({ kind: 'measure', ...input }, signal) as Promise<Measurement>
