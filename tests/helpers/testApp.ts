// A whole API on a real database for one test file: PostgreSQL when DATABASE_URL is set (CI), else an
// embedded PGlite in a temporary data folder. Requests go through app.handle, as in production.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../api/config'
import { startRuntime, type Runtime } from '../../api/runtime'
import type { ModelProvider } from '../../api/llm/provider'
import { recordClientIp } from '../../api/http/guard'

/** `ip` is the socket address the request arrives from (default: one random address per test app). */
export interface CallOptions {
  body?: unknown
  cookie?: string
  headers?: Record<string, string>
  form?: FormData
  ip?: string
}

export interface TestApp extends Runtime {
  call(method: string, path: string, opts?: CallOptions): Promise<Response>
  json<T = any>(method: string, path: string, opts?: CallOptions): Promise<{ status: number; body: T; res: Response }>
  /** Signs a new REGULAR user in through the development identity provider; returns their cookie. */
  signUp(email?: string, name?: string): Promise<{ cookie: string; user: any }>
  /** Makes a user with a password (and a role) directly in the database. */
  makeUser(opts: { email?: string; password?: string; role?: string; name?: string }): Promise<{ id: string; email: string; password: string }>
  signIn(email: string, password: string): Promise<string>
}

let counter = 0
const rand255 = () => Math.floor(Math.random() * 256)
export const uniqueEmail = (tag = 'user') => `${tag}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 6)}@example.com`

export function cookieOf(res: Response): string {
  const set = res.headers.getSetCookie()
  return set.map((c) => c.split(';')[0]).join('; ')
}

export async function startTestApp(env: Record<string, string> = {}, opts: { model?: ModelProvider } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idealself-test-'))
  const cfg: Config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'offline',
    ADMIN_EMAIL: uniqueEmail('first-admin'),
    ADMIN_PASSWORD: 'First-admin-1!',
    ...env,
  })
  const rt = await startRuntime(cfg, { log: () => {}, model: opts.model })
  const base = 'http://localhost'
  // Sign-in limits count per source address and live in the shared database: each app is its own source.
  const address = `10.${rand255()}.${rand255()}.${rand255()}`

  const call: TestApp['call'] = (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) }
    if (o.cookie) headers.cookie = o.cookie
    let body: BodyInit | undefined
    if (o.form) body = o.form
    else if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body)
    }
    const request = new Request(base + '/api/v1' + path, { method, headers, body })
    recordClientIp(request, o.ip ?? address)
    return rt.app.handle(request)
  }
  const json: TestApp['json'] = async (method, path, o) => {
    const res = await call(method, path, o)
    const text = await res.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed, res }
  }

  const t: TestApp = {
    ...rt,
    call,
    json,
    async signUp(email = uniqueEmail(), name = 'Test User') {
      const { body } = await json('POST', '/auth/dev/token', { body: { email, name } })
      const res = await call('POST', '/auth/login/oauth', { body: { idToken: body.idToken, strategy: 'google', isWeb: true } })
      if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
      return { cookie: cookieOf(res), user: (await res.json()).user }
    },
    async makeUser({ email = uniqueEmail(), password = 'Passw0rd!x', role = 'REGULAR', name = 'Made User' }) {
      const hash = await Bun.password.hash(password)
      const [row] = await rt.ctx.sql<{ id: string }[]>`
        insert into users (email, name, role, password_hash, is_email_verified)
        values (${email}, ${name}, ${role}, ${hash}, true) returning id`
      return { id: row.id, email, password }
    },
    async signIn(email, password) {
      const res = await call('POST', '/auth/login/credential', { body: { username: email, password, isWeb: true } })
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
      return cookieOf(res)
    },
    async close() {
      await rt.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return t
}
