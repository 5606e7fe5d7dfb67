// Smoke run of `npm start` on the embedded database: health 200, development sign-in, GET /self 200,
// then a clean stop and a restart that still finds the user.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const port = 4388
const base = `http://localhost:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'idealself-smoke-'))
const env = { ...process.env, PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir, DATABASE_URL: '' }

// Its own process group, so a stop reaches npm and the Bun process it runs, as a process manager's would.
function start(): ChildProcess {
  return spawn('npm', ['start'], { env, stdio: 'inherit', detached: true })
}

async function waitHealthy() {
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(`${base}/api/v1/health`)
      if (r.status === 200) return (await r.json()) as { database: { kind: string } }
    } catch {}
    await Bun.sleep(500)
  }
  throw new Error('the app did not become healthy')
}

async function stop(child: ChildProcess) {
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))
  process.kill(-child.pid!, 'SIGTERM')
  const timedOut = await Promise.race([exited.then(() => false), Bun.sleep(20_000).then(() => true)])
  if (timedOut) {
    process.kill(-child.pid!, 'SIGKILL')
    throw new Error('npm start did not stop within 20 s of SIGTERM')
  }
  // The port is free again once the server has really closed.
  for (let i = 0; i < 40; i++) {
    try {
      await fetch(`${base}/api/v1/health`)
    } catch {
      return
    }
    await Bun.sleep(250)
  }
  throw new Error('the server still answers after SIGTERM')
}

let child = start()
try {
  const health = await waitHealthy()
  if (health.database.kind !== 'embedded') throw new Error(`expected the embedded database, got ${health.database.kind}`)
  const { idToken } = await (await fetch(`${base}/api/v1/auth/dev/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'smoke@example.com', name: 'Smoke' }),
  })).json()
  const login = await fetch(`${base}/api/v1/auth/login/oauth`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken, strategy: 'google', isWeb: true }),
  })
  if (login.status !== 200) throw new Error(`development sign-in answered ${login.status}`)
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const me = await fetch(`${base}/api/v1/self`, { headers: { cookie } })
  if (me.status !== 200) throw new Error(`GET /self answered ${me.status}`)
  await stop(child)
  child = start()
  await waitHealthy()
  const again = await fetch(`${base}/api/v1/self`, { headers: { cookie } })
  if (again.status !== 200) throw new Error(`after a restart GET /self answered ${again.status}`)
  console.log('smoke: health 200, development sign-in, GET /self 200, clean stop, restart keeps the session')
} finally {
  if (child.exitCode === null) await stop(child).catch(() => {})
  rmSync(dataDir, { recursive: true, force: true })
}
