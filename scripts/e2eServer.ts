// The server the browser journeys run against: `npm start` on a fresh data folder, a known admin password,
// a local stand-in playing ECPay's side of payments, and — with E2E_MODEL=ollama — a local server speaking
// Ollama's wire format whose replies the journeys script through POST /model-script on E2E_CONTROL_PORT.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { startFakeEcpay } from '../tests/helpers/fakeEcpay'
import { defaultReply, startFakeOllama, type ScriptedReply } from '../tests/helpers/fakeOllama'
import postgres from 'postgres'

const dataDir = mkdtempSync(join(tmpdir(), 'idealself-e2e-'))

// Each journey server gets a database of its own: on PostgreSQL (DATABASE_URL, as in CI) a fresh database beside
// the given one, else the embedded database in its data folder.
async function ownDatabase(url: string | undefined): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!url) return null
  // Named after the given database, so whoever made that one (CI) can drop these with it.
  const name = `${new URL(url).pathname.slice(1)}_e2e_${process.env.PORT}`
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists ${name} with (force)`)
  await admin.unsafe(`create database ${name}`)
  const own = new URL(url)
  own.pathname = `/${name}`
  return {
    url: own.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {})
      await admin.end()
    },
  }
}
const database = await ownDatabase(process.env.DATABASE_URL)
const ecpay = await startFakeEcpay({ mode: 'manual' })
// The memory extraction after each reply asks the model too; it has a queue of its own (nothing remembered unless a
// journey scripts it), so it never takes a reply a journey scripted for the chat.
const scripted: ScriptedReply[] = []
const extractions: object[] = []
const isMemoryExtraction = (schema: any) => Boolean(schema?.properties?.add && schema?.properties?.outdated)
const ollama =
  process.env.E2E_MODEL === 'ollama'
    ? startFakeOllama({
        models: ['qwen2.5:3b-instruct'],
        reply: (input) =>
          isMemoryExtraction(input.schema)
            ? { text: JSON.stringify(extractions.shift() ?? { add: [], update: [], outdated: [] }) }
            : (scripted.shift() ?? defaultReply(input)),
      })
    : null
const control = ollama
  ? Bun.serve({
      port: Number(process.env.E2E_CONTROL_PORT ?? 0),
      hostname: '127.0.0.1',
      async fetch(request) {
        // { text?, chunkDelayMs?, status?, error? } for the next chat reply, { memory: {add, update, outdated} } for
        // the next memory extraction, or { reset: true }.
        const script = await request.json()
        if (script.reset) {
          scripted.length = 0
          extractions.length = 0
        }
        else if (script.memory) extractions.push(script.memory)
        else scripted.push(script)
        return Response.json({ ok: true })
      },
    })
  : null

const child = spawn(process.execPath, ['scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    LLM_PROVIDER: ollama ? 'ollama' : 'offline',
    ...(ollama ? { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'qwen2.5:3b-instruct' } : {}),
    ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? 'admin@e2e.test',
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'E2e-admin-Passw0rd!',
    ECPAY_ENDPOINT: ecpay.url,
    STORY_EXCHANGES: process.env.STORY_EXCHANGES ?? '2',
  },
})
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s))
child.on('exit', async (code) => {
  await ecpay.stop()
  ollama?.stop()
  control?.stop(true)
  await database?.drop()
  process.exit(code ?? 0)
})
