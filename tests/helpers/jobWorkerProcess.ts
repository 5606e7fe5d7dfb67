// A second API process for the "killed mid-job" test: the whole runtime against DATABASE_URL, with the model at
// OLLAMA_HOST and a job worker whose lease is JOB_LEASE_MS, so another worker can take over soon after a SIGKILL.
// Prints "ready" once its worker is polling.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../api/config'
import { JOB_HANDLERS, startRuntime } from '../../api/runtime'
import { createJobWorker } from '../../api/jobs/worker'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'

const env = process.env
const cfg = loadConfig({
  DATABASE_URL: env.DATABASE_URL,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-worker-')),
  LLM_PROVIDER: 'offline',
  ADMIN_EMAIL: env.ADMIN_EMAIL,
  ADMIN_PASSWORD: 'Worker-process-1!',
})
const runtime = await startRuntime(cfg, {
  log: () => {},
  model: createOllamaProvider({ host: env.OLLAMA_HOST!, model: env.OLLAMA_MODEL ?? 'llama3.2:1b' }),
})
// The runtime's own worker has the production lease; this one hands over within the test's patience.
await runtime.ctx.jobs.stop()
createJobWorker(runtime.ctx.sql, { handlers: JOB_HANDLERS, leaseMs: Number(env.JOB_LEASE_MS ?? 1500), log: (line) => console.error(line) }).start(runtime.ctx)
console.log('ready')
