// The deployment files a self-hoster copies (Dockerfile, compose.yaml, deploy/nginx.conf, .env.example) stay
// consistent with what the app actually reads (api/config.ts): no required variable missing, no misspelt one, the
// health check and ports where the app answers.
import { describe, expect, test } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../../api/config'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const read = (path: string) => readFileSync(root + path, 'utf8')

/** Every variable api/config.ts reads, from its source: env.NAME, and the NAME given to int() and oneOf(). */
function configVariables(): Set<string> {
  const source = read('api/config.ts')
  const names = new Set<string>()
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1])
  for (const m of source.matchAll(/\b(?:int|oneOf)\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(m[1])
  return names
}

const compose = Bun.YAML.parse(read('compose.yaml')) as any
const appEnvironment = compose.services.app.environment as Record<string, string>

/**
 * The app's environment as compose would hand it over: `${NAME:?…}` (required from the .env file) gets a stand-in
 * that passes the config's checks, `${NAME:-default}` its default; `omit` leaves required ones unset.
 */
function composedEnvironment(omit: string[] = []): Record<string, string | undefined> {
  const required = (name: string) => (name.includes('SECRET') ? 'a-session-secret-of-at-least-32-characters' : name.endsWith('URL') ? 'https://idealself.example.com' : 'stand-in')
  const env: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(appEnvironment)) {
    let unset = false
    const resolved = String(value)
      .replace(/\$\{([A-Z_]+):\?[^}]*\}/g, (_, name) => {
        if (omit.includes(name)) unset = true
        return required(name)
      })
      .replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, _name, fallback) => fallback)
    env[key] = unset ? undefined : resolved
  }
  return env
}

const requiredInCompose = [...new Set([...JSON.stringify(appEnvironment).matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]))]

describe('compose.yaml and api/config.ts', () => {
  test('the app service sets only variables the app reads', () => {
    const known = configVariables()
    expect(known.size).toBeGreaterThan(30)
    const unknown = Object.keys(appEnvironment).filter((name) => !known.has(name))
    expect(unknown).toEqual([])
  })

  test('with what compose sets, the production configuration loads (every required variable is there)', () => {
    const cfg = loadConfig(composedEnvironment())
    expect(cfg.production).toBe(true)
    expect(cfg.databaseUrl).toMatch(/^postgres:\/\/idealself:.+@postgres:5432\/idealself$/)
    expect(cfg.host).toBe('0.0.0.0')
    expect(cfg.dataDir).toBe('/data')
    expect(cfg.trustedProxies).toBe('private')
  })

  test('each variable compose requires from .env is one the app cannot start without, or the database password', () => {
    expect(requiredInCompose.sort()).toEqual(['POSTGRES_PASSWORD', 'PUBLIC_URL', 'SESSION_SECRET', 'SMTP_URL'])
    for (const name of requiredInCompose.filter((n) => n !== 'POSTGRES_PASSWORD' && n !== 'PUBLIC_URL')) {
      const env = composedEnvironment([name])
      expect(() => loadConfig(env), name).toThrow(name)
    }
  })

  test('two replicas of the app on one PostgreSQL behind the proxy, with an optional Ollama', () => {
    expect(compose.services.app.deploy.replicas).toBe(2)
    expect(compose.services.app.depends_on.postgres.condition).toBe('service_healthy')
    expect(compose.services.postgres.image).toMatch(/postgres|pgvector/)
    expect(compose.services.ollama.profiles).toEqual(['ollama'])
    const mount = compose.services.proxy.volumes.find((v: string) => v.includes('nginx.conf')) as string
    expect(existsSync(root + mount.split(':')[0].replace(/^\.\//, ''))).toBe(true)
    // The proxy's upstream is the app service on the port the app listens on.
    const upstream = read('deploy/nginx.conf').match(/^\s*server ([a-z]+):(\d+);/m)!
    expect(compose.services[upstream[1]]).toBeDefined()
    expect(upstream[2]).toBe(appEnvironment.PORT)
  })
})

describe('.env.example and the README', () => {
  test('document every variable the app reads', () => {
    const example = read('.env.example')
    const readme = read('README.md')
    for (const name of configVariables()) {
      expect(example, `.env.example lacks ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'))
      expect(readme, `README lacks ${name}`).toContain(`\`${name}\``)
    }
  })
})

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile')
  const lines = dockerfile.split('\n')
  const last = (instruction: string) => lines.filter((l) => l.startsWith(`${instruction} `)).at(-1) ?? ''

  test('multi-stage, running as a user that is not root', () => {
    expect(lines.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2)
    const user = last('USER').slice(5).trim()
    expect(user).not.toBe('')
    expect(user).not.toMatch(/^(root|0)(:|$)/)
  })

  test('checks its health on /api/v1/health at the port it listens on, and starts npm start', () => {
    const port = dockerfile.match(/\bPORT=(\d+)/)![1]
    expect(last('EXPOSE')).toBe(`EXPOSE ${port}`)
    expect(dockerfile).toMatch(new RegExp(`HEALTHCHECK[^\\n]*\\\\\\n[^\\n]*127\\.0\\.0\\.1:${port}/api/v1/health`))
    expect(last('CMD')).toContain('scripts/start.ts')
    expect(port).toBe(appEnvironment.PORT)
  })

  test('carries everything the start command reads: migrations, texts, the API and the built site', () => {
    for (const path of ['sql', 'locales', 'api', 'site/dist', 'site/astro.config.mjs', 'scripts/start.ts', 'scripts/serveSite.ts', 'scripts/build.ts'])
      expect(dockerfile, path).toContain(`/app/${path}`)
    // start.ts imports these; a file it imports that the image lacks would stop the container at once.
    const imports = [...read('scripts/start.ts').matchAll(/from '\.\/([a-zA-Z]+)'/g)].map((m) => `scripts/${m[1]}.ts`)
    for (const path of imports) expect(dockerfile, path).toContain(`/app/${path}`)
  })
})
