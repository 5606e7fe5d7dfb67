// The server the browser journeys run against: `npm start` on a fresh data folder, offline model by
// default, a known admin password, and a local stand-in playing ECPay's side of payments.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { startFakeEcpay } from '../tests/helpers/fakeEcpay'

const dataDir = mkdtempSync(join(tmpdir(), 'idealself-e2e-'))
const ecpay = await startFakeEcpay({ mode: 'manual' })
const child = spawn(process.execPath, ['scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    LLM_PROVIDER: process.env.LLM_PROVIDER ?? 'offline',
    ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? 'admin@e2e.test',
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'E2e-admin-Passw0rd!',
    ECPAY_ENDPOINT: ecpay.url,
  },
})
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s))
child.on('exit', async (code) => {
  await ecpay.stop()
  process.exit(code ?? 0)
})
