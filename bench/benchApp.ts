// The production build started for a bench (offline model, embedded database unless one is given), and the
// Chromium the benches drive: one place for what bench/pages.ts, bench/bundle.ts and bench/lighthouse.ts share.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

/** `npm start` on `port` with the offline model, a fresh data folder and a one-answer story; resolves once healthy. */
export async function startBenchApp(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const base = `http://localhost:${port}`
  const app = spawn(process.execPath, ['scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), PUBLIC_URL: base, DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-bench-')), DATABASE_URL: '', LLM_PROVIDER: 'offline', STORY_EXCHANGES: '1', ...env },
    stdio: 'ignore',
  })
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return app
    } catch {}
    await Bun.sleep(500)
  }
  app.kill()
  throw new Error(`the app did not come up on ${base}`)
}
