// Several instances of `npm start` (site and API) on one PostgreSQL database behind nginx from Debian's packages,
// run with the proxy configuration that ships in deploy/nginx.conf. Used by the multi-instance journey and by
// bench/scale.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'
import postgres from 'postgres'
import type { Subprocess } from 'bun'

export interface Instance {
  url: string
  /** "127.0.0.1:port", as nginx names the upstream that answered (X-Upstream in these runs). */
  address: string
  /** Everything the instance printed. */
  output(): string
  /** SIGKILL: no shutdown, no last writes. */
  kill(): Promise<void>
  alive(): boolean
}

export interface Cluster {
  /** The proxy's origin; null when started without one. */
  proxy: string | null
  instances: Instance[]
  /** A connection to the cluster's database. */
  sql: postgres.Sql<{}>
  stop(): Promise<void>
}

export function nginxPath(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (spawnSync(candidate, ['-v']).status === 0) return candidate
  return null
}

/** deploy/nginx.conf with these upstream servers and port, inside a main configuration that runs as any user. */
export function proxyConfig(dir: string, port: number, upstreams: string[], opts: { tagUpstream?: boolean } = {}): string {
  let site = readFileSync(fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url)), 'utf8')
  const replaced = (from: RegExp, to: string) => {
    if (!from.test(site)) throw new Error(`deploy/nginx.conf no longer has ${from}`)
    site = site.replace(from, to)
  }
  replaced(/^\s*server app:4321;$/m, upstreams.map((u) => `    server ${u};`).join('\n'))
  replaced(/^\s*listen 80;$/m, `    listen 127.0.0.1:${port};`)
  // Which instance answered, for the tests that check the spread (not in the shipped file: it names inner addresses).
  if (opts.tagUpstream) replaced(/location \/ \{/, 'location / {\n        add_header X-Upstream $upstream_addr always;')
  const temp = (name: string) => {
    const path = join(dir, name)
    mkdirSync(path, { recursive: true })
    chmodSync(path, 0o777)
    return path
  }
  return `worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
${site}
}
`
}

async function waitUntil(what: string, ok: () => Promise<boolean>, ms: number, details: () => string, exited?: () => boolean) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await ok().catch(() => false)) return
    if (exited?.()) throw new Error(`${what} exited before it was ready\n${details()}`)
    await Bun.sleep(100)
  }
  throw new Error(`${what} did not come up within ${ms / 1000} s\n${details()}`)
}

const healthy = (origin: string) => async () => (await fetch(`${origin}/api/v1/health`)).ok

/** A fresh database beside DATABASE_URL's, named after it (so CI drops it with its own). */
export async function freshDatabase(baseUrl: string, suffix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${new URL(baseUrl).pathname.slice(1)}_${suffix}`.toLowerCase().replace(/[^a-z0-9_]/g, '_')
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists ${name} with (force)`)
  await admin.unsafe(`create database ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {})
      await admin.end()
    },
  }
}

export async function startCluster(opts: {
  databaseUrl: string
  /** The proxy listens here, the instances on the ports after it. */
  basePort: number
  instances: number
  /** Environment of every instance (the model, timings…). */
  env: Record<string, string>
  /** More environment for instance `i` (from 0). */
  envOf?: (i: number) => Record<string, string>
  proxy?: boolean
  tagUpstream?: boolean
}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'idealself-cluster-'))
  chmodSync(dir, 0o755)
  // One DATA_DIR for all, as a shared volume would be: uploaded files, and the development keys.
  const dataDir = join(dir, 'data')
  const proxyOrigin = `http://127.0.0.1:${opts.basePort}`
  const procs: Subprocess[] = []
  const outputs: string[] = []
  let nginx: Subprocess | null = null

  const instances: Instance[] = Array.from({ length: opts.instances }, (_, i) => {
    const port = opts.basePort + 1 + i
    outputs[i] = ''
    const proc = Bun.spawn([process.execPath, 'scripts/start.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: opts.proxy === false ? `http://127.0.0.1:${port}` : proxyOrigin,
        DATABASE_URL: opts.databaseUrl,
        DATA_DIR: dataDir,
        TRUSTED_PROXIES: 'loopback',
        ...opts.env,
        ...opts.envOf?.(i),
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    procs.push(proc)
    for (const stream of [proc.stdout, proc.stderr])
      void (async () => {
        const decoder = new TextDecoder()
        for await (const chunk of stream as ReadableStream<Uint8Array>) outputs[i] += decoder.decode(chunk)
      })()
    return {
      url: `http://127.0.0.1:${port}`,
      address: `127.0.0.1:${port}`,
      output: () => outputs[i],
      alive: () => proc.exitCode === null && proc.signalCode === null,
      async kill() {
        proc.kill('SIGKILL')
        await proc.exited
      },
    }
  })
  const sql = postgres(opts.databaseUrl, { max: 4, onnotice: () => {} })

  const stop = async () => {
    nginx?.kill('SIGQUIT')
    for (const p of procs) p.kill('SIGTERM')
    await Promise.race([Promise.all([...procs.map((p) => p.exited), nginx?.exited]), Bun.sleep(10_000)])
    for (const p of procs) p.kill('SIGKILL')
    nginx?.kill('SIGKILL')
    await sql.end({ timeout: 2 })
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    // All at once, as an orchestrator starts replicas: migrations and the first admin happen exactly once.
    await Promise.all(
      instances.map((instance, i) => waitUntil(`instance ${i + 1}`, healthy(instance.url), 120_000, () => instance.output(), () => !instance.alive())),
    )
    if (opts.proxy !== false) {
      const binary = nginxPath()
      if (!binary) throw new Error('nginx is not installed (apt-get install -y nginx)')
      const conf = join(dir, 'nginx.conf')
      writeFileSync(conf, proxyConfig(dir, opts.basePort, instances.map((i) => i.address), { tagUpstream: opts.tagUpstream }))
      nginx = Bun.spawn([binary, '-p', dir, '-c', conf, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdout: 'ignore', stderr: 'pipe' })
      await waitUntil('nginx', healthy(proxyOrigin), 15_000, () => {
        try {
          return readFileSync(join(dir, 'error.log'), 'utf8')
        } catch {
          return ''
        }
      })
    }
  } catch (e) {
    await stop()
    throw e
  }
  return { proxy: opts.proxy === false ? null : proxyOrigin, instances, sql, stop }
}
