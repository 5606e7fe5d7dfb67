// The server the browser journeys run against: `npm start` on a fresh data folder, offline model by
// default, fast story and a known admin password.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'

const dataDir = mkdtempSync(join(tmpdir(), 'idealself-e2e-'))
const child = spawn(process.execPath, ['scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    LLM_PROVIDER: process.env.LLM_PROVIDER ?? 'offline',
    ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? 'admin@e2e.test',
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'E2e-admin-Passw0rd!',
  },
})
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s))
child.on('exit', (code) => process.exit(code ?? 0))
