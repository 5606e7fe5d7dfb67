// Brings the API up: configuration, database (embedded or PostgreSQL), migrations, first admin,
// identity verification, mail, storage and the model provider. Both entry points and the tests use it.
import { join } from 'node:path'
import { loadConfig, type Config } from './config'
import { openDatabase } from './db/database'
import { migrate } from './db/migrate'
import { createApp, type App } from './app'
import type { AppContext } from './context'
import { createMailer } from './mail/mailer'
import { S3_TEMP_PREFIX, diskStorage, s3Storage } from './files/storage'
import { sweepTempFolders } from './files/tempFolders'
import { sessionKeys } from './auth/sessions'
import { remoteKeys } from './auth/idToken'
import { createDevIdentityProvider } from './auth/devIdentityProvider'
import { clientAddress, parseTrustedProxies } from './http/clientAddress'
import { clientIp } from './http/guard'
import { ensureFirstAdmin } from './users/firstAdmin'
import { seedContent } from './content/seed'
import { selectProvider, describeProvider } from './llm/selectProvider'
import type { ModelProvider } from './llm/provider'
import { startSubscriptionExpiry } from './payments/expiry'
import { createJobWorker, type JobHandler } from './jobs/worker'
import { BUILD_CHARACTER, buildCharacterJob } from './characters/buildJob'
import { ANALYZE_CHAT_HISTORY, analyzeChatHistoryJob } from './chat-import/analysis/importJob'
import { EXTRACT_MEMORIES, extractMemoriesJob } from './memory/extractJob'
import { BUILD_DATA_EXPORT, EXPORT_TEMP_PREFIX, buildDataExportJob, dropExpiredArchives } from './self/dataExport'
import { createReplyWatch } from './chat/staleReplies'
import { createBus } from './db/bus'
import { createReplyRelay } from './chat/replyRelay'
import { startPeriodic, type Periodic } from './jobs/periodic'
import { dropFinishedJobs } from './jobs/queue'
import { stagingDir, sweepStaged, touchStaged } from './chat-import/analysis/incoming'
import { dropEndedSessions } from './auth/sessions'
import { dropExpiredResetTokens } from './auth/resetTokens'
import { DASHBOARD_DAYS } from './admin/dashboard'

// Every kind of durable job the product runs, and the handler that runs it. Features own their jobs; the queue knows
// none of them. Workers claim only kinds they have a handler for, so a process that does not know a new kind yet
// leaves its jobs to one that does.
export const JOB_HANDLERS: Record<string, JobHandler> = {
  [BUILD_CHARACTER]: buildCharacterJob,
  [ANALYZE_CHAT_HISTORY]: analyzeChatHistoryJob,
  [EXTRACT_MEMORIES]: extractMemoriesJob,
  [BUILD_DATA_EXPORT]: buildDataExportJob,
}

export interface Runtime {
  cfg: Config
  ctx: AppContext
  app: App
  /** What every instance sweeps now and then; runAll() sweeps at once. */
  housekeeping: Periodic
  close(): Promise<void>
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/**
 * Housekeeping: what has outlived its purpose, removed by every instance on a timer, each item once (see each
 * function). Each feature says how its own data is swept; this says when.
 */
function housekeepingTasks(ctx: AppContext) {
  const { cfg, sql, storage } = ctx
  const everyMs = cfg.housekeepingMinutes * MINUTE
  const stagedIdleMs = cfg.stagedUploadIdleMinutes * MINUTE
  return [
    // An archive whose owner never comes back to look is not kept past its day.
    { name: 'Expired data archives removed', everyMs, run: () => dropExpiredArchives(sql, storage) },
    // Several marks within the idle time, so a live upload on any instance is never taken for abandoned.
    { name: 'Staged chat exports marked in use', everyMs: stagedIdleMs / 6, run: () => touchStaged() },
    { name: 'Abandoned staged chat exports removed', everyMs, run: () => sweepStaged(stagingDir(cfg.dataDir), stagedIdleMs) },
    // Archives being written and exports fetched from the bucket, left by a process killed in the middle: no such
    // work goes a day without writing.
    {
      name: 'Temporary folders of stopped processes removed',
      everyMs,
      run: async () => (await sweepTempFolders(EXPORT_TEMP_PREFIX, DAY)) + (await sweepTempFolders(S3_TEMP_PREFIX, DAY)),
    },
    // Kept as long as the admin dashboard counts sign-ins from them.
    { name: 'Ended sessions forgotten', everyMs, run: () => dropEndedSessions(sql, (DASHBOARD_DAYS + 1) * DAY) },
    { name: 'Expired password-reset links forgotten', everyMs, run: () => dropExpiredResetTokens(sql) },
    // One per exchange: without this the queue's table grows with every message ever sent.
    { name: 'Finished memory extractions forgotten', everyMs, run: () => dropFinishedJobs(sql, [EXTRACT_MEMORIES], DAY) },
  ]
}

export async function startRuntime(
  cfg: Config = loadConfig(),
  opts: { log?: (s: string) => void; model?: ModelProvider } = {},
): Promise<Runtime> {
  const log = opts.log ?? ((s: string) => console.log(s))
  const db = await openDatabase(cfg)
  try {
    const applied = await migrate(db.sql)
    if (applied.length) log(`Migrations applied: ${applied.join(', ')}`)
    await seedContent(db.sql, cfg)
    await ensureFirstAdmin(db.sql, {
      email: cfg.adminEmail,
      password: cfg.adminPassword,
      messageLimit: cfg.freeMessageLimit,
      period: cfg.freeLimitPeriod,
      log,
    })
    const devIdp =
      !cfg.googleClientId && !cfg.production
        ? await createDevIdentityProvider({ production: cfg.production, dataDir: cfg.dataDir, publicUrl: cfg.publicUrl })
        : null
    const provider = opts.model ?? (await selectProvider(cfg.llm))
    const trustedProxies = parseTrustedProxies(cfg.trustedProxies)
    const bus = await createBus(db, log)
    const relay = createReplyRelay(db.sql, bus, log)
    const goneMs = cfg.replyWriterGoneSeconds * 1000
    const ctx: AppContext = {
      cfg,
      db,
      sql: db.sql,
      sendMail: createMailer({ smtpUrl: cfg.smtpUrl, from: cfg.mailFrom, sql: db.sql, log }),
      storage: cfg.s3 ? s3Storage(cfg.s3) : diskStorage(join(cfg.dataDir, 'files')),
      sessionKeys: sessionKeys(cfg.sessionSecret, cfg.sessionDays),
      idTokenVerifier: cfg.googleClientId
        ? { keys: remoteKeys(cfg.googleJwksUrl), issuers: cfg.googleIssuers, audience: cfg.googleClientId }
        : (devIdp?.verifier ?? null),
      devIdp,
      clientAddress: (request) => clientAddress(clientIp(request), request.headers.get('x-forwarded-for'), trustedProxies),
      cookieName: cfg.production ? '__Host-session' : 'session',
      model: { provider, describe: () => describeProvider(provider) },
      jobs: createJobWorker(db.sql, { handlers: JOB_HANDLERS, log, leaseMs: cfg.jobLeaseSeconds * 1000 }),
      // A heartbeat several times within the grace period, and a sweep soon after it ends: a killed writer's reply
      // is failed within about 1.7 × REPLY_WRITER_GONE_SECONDS.
      replies: createReplyWatch(db.sql, {
        period: cfg.freeLimitPeriod,
        log,
        goneMs,
        heartbeatMs: Math.max(250, Math.round(goneMs / 4.5)),
        sweepMs: Math.max(500, Math.round((goneMs * 2) / 3)),
        relay,
      }),
      bus,
      relay,
    }
    const stopSubscriptionExpiry = startSubscriptionExpiry(ctx, log)
    const housekeeping = startPeriodic(housekeepingTasks(ctx), log)
    ctx.jobs.start(ctx)
    ctx.replies.start()
    const close = async () => {
      await housekeeping.stop()
      await stopSubscriptionExpiry()
      await ctx.jobs.stop()
      await ctx.replies.stop()
      await bus.close()
      await db.close()
    }
    return { cfg, ctx, app: createApp(ctx), housekeeping, close }
  } catch (e) {
    await db.close().catch(() => {})
    throw e
  }
}
