// The process an export task runs in (see exportProcess.ts): the task as JSON on standard input, the answer as JSON
// on standard output, then it exits and its memory goes back to the system.
import { runExportTask, type ExportTask } from './exportTasks'

const task = JSON.parse(await Bun.stdin.text()) as ExportTask
await Bun.write(Bun.stdout, JSON.stringify(await runExportTask(task)))
