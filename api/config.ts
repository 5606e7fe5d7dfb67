// Every environment variable the product reads, parsed and defaulted in one place (DESIGN §12).
import { mkdirSync, readFileSync, writeFileSync, existsSync, linkSync, unlinkSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { resolve, join } from 'node:path'
import { parseTrustedProxies } from './http/clientAddress'

export type LlmProviderName = 'auto' | 'ollama' | 'openai' | 'offline'
export type LimitPeriod = 'day' | 'week'

export interface Config {
  port: number
  host: string
  publicUrl: string
  production: boolean
  databaseUrl: string | null
  dataDir: string
  sessionSecret: string
  sessionDays: number
  adminEmail: string
  adminPassword: string | null
  googleClientId: string | null
  googleJwksUrl: string
  googleIssuers: string[]
  smtpUrl: string | null
  mailFrom: string
  llm: {
    provider: LlmProviderName
    ollama: { host: string; model: string; apiKey: string | null; keepAlive: string; embedModel: string | null }
    openai: { baseUrl: string | null; apiKey: string | null; model: string | null; embedModel: string | null }
  }
  ecpay: { merchantId: string; hashKey: string; hashIV: string; endpoint: string }
  timeZone: string
  freeMessageLimit: number
  freeLimitPeriod: LimitPeriod
  storyExchanges: number
  uploadMaxBytes: number
  chatHistoryMaxBytes: number
  /** S3-compatible storage for uploaded files; null → DATA_DIR/files. */
  s3: { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } | null
  errorReportingDsn: string | null
  posthogKey: string | null
  posthogHost: string
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDR ranges, `loopback`, `private`); empty → none. */
  trustedProxies: string
  /** How long a job's claim lasts without renewal: how soon another instance takes over from a killed one. */
  jobLeaseSeconds: number
  /** How long a reply may go without its writer's heartbeat before any instance fails and refunds it. */
  replyWriterGoneSeconds: number
  /** How often every instance sweeps what has outlived its purpose (expired archives, ended sessions…). */
  housekeepingMinutes: number
  /** How long a staged chat-export file may go untouched before any instance takes it for abandoned. */
  stagedUploadIdleMinutes: number
}

function int(env: Record<string, string | undefined>, name: string, fallback: number, min = 0): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}

function oneOf<T extends string>(env: Record<string, string | undefined>, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]
  if (!raw) return fallback
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
  return raw as T
}

function trustedProxies(raw: string): string {
  try {
    parseTrustedProxies(raw)
  } catch {
    throw new Error(`TRUSTED_PROXIES must be a comma list of IP addresses, CIDR ranges, loopback or private, got "${raw}"`)
  }
  return raw
}

/**
 * A file in DATA_DIR made once: when several processes sharing the folder start together, the first to create it
 * wins and the others read its content (written whole before it gets its name, so never read half-written).
 */
export function createOnce(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name)
  if (existsSync(file)) return readFileSync(file, 'utf8')
  mkdirSync(dataDir, { recursive: true })
  const draft = join(dataDir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}`)
  writeFileSync(draft, make(), { mode: 0o600 })
  try {
    linkSync(draft, file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  } finally {
    unlinkSync(draft)
  }
  return readFileSync(file, 'utf8')
}

/** A secret kept in DATA_DIR so development restarts keep their sessions. */
function persistedSecret(dataDir: string, name: string): string {
  return createOnce(dataDir, name, () => randomBytes(32).toString('base64url') + '\n').trim()
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const production = env.NODE_ENV === 'production'
  const port = int(env, 'PORT', 4321, 0)
  const dataDir = resolve(env.DATA_DIR || './data')
  const sessionSecret = env.SESSION_SECRET || (production ? '' : persistedSecret(dataDir, 'session-secret'))
  if (!sessionSecret) throw new Error('SESSION_SECRET is required in production')
  if (sessionSecret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters')
  const smtpUrl = env.SMTP_URL || null
  if (production && !smtpUrl) throw new Error('SMTP_URL is required in production')
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    production,
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    sessionSecret,
    sessionDays: int(env, 'SESSION_DAYS', 30, 1),
    adminEmail: (env.ADMIN_EMAIL || 'admin@idealself.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleJwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
    googleIssuers: (env.GOOGLE_ISSUERS || 'accounts.google.com,https://accounts.google.com')
      .split(',').map((s) => s.trim()).filter(Boolean),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Ideal Self <no-reply@idealself.local>',
    llm: {
      provider: oneOf(env, 'LLM_PROVIDER', ['auto', 'ollama', 'openai', 'offline'] as const, 'auto'),
      ollama: {
        host: env.OLLAMA_HOST || 'http://127.0.0.1:11434',
        model: env.OLLAMA_MODEL || 'qwen2.5:3b-instruct',
        apiKey: env.OLLAMA_API_KEY || null,
        keepAlive: env.OLLAMA_KEEP_ALIVE || '10m',
        embedModel: env.EMBEDDING_MODEL || null,
      },
      openai: {
        baseUrl: env.OPENAI_BASE_URL || null,
        apiKey: env.OPENAI_API_KEY || null,
        model: env.OPENAI_MODEL || null,
        embedModel: env.EMBEDDING_MODEL || null,
      },
    },
    ecpay: {
      merchantId: env.ECPAY_MERCHANT_ID || '3002607',
      hashKey: env.ECPAY_HASH_KEY || 'pwFHCqoQZGmho4w6',
      hashIV: env.ECPAY_HASH_IV || 'EkRm7iFT261dpevs',
      endpoint: (env.ECPAY_ENDPOINT || 'https://payment-stage.ecpay.com.tw').replace(/\/$/, ''),
    },
    timeZone: env.APP_TIME_ZONE || 'Asia/Taipei',
    freeMessageLimit: int(env, 'FREE_MESSAGE_LIMIT', 100, 0),
    freeLimitPeriod: oneOf(env, 'FREE_LIMIT_PERIOD', ['day', 'week'] as const, 'week'),
    storyExchanges: int(env, 'STORY_EXCHANGES', 4, 1),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1),
    chatHistoryMaxBytes: int(env, 'CHAT_HISTORY_MAX_BYTES', 25 * 1024 * 1024, 1),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || undefined,
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
        }
      : null,
    errorReportingDsn: env.ERROR_REPORTING_DSN || null,
    posthogKey: env.POSTHOG_KEY || null,
    posthogHost: env.POSTHOG_HOST || 'https://us.i.posthog.com',
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES ?? ''),
    jobLeaseSeconds: int(env, 'JOB_LEASE_SECONDS', 60, 1),
    replyWriterGoneSeconds: int(env, 'REPLY_WRITER_GONE_SECONDS', 45, 1),
    housekeepingMinutes: int(env, 'HOUSEKEEPING_MINUTES', 10, 1),
    stagedUploadIdleMinutes: int(env, 'STAGED_UPLOAD_IDLE_MINUTES', 60, 1),
  }
}
