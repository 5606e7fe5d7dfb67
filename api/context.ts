// What every route factory receives: configuration and the process's shared resources.
import type { Config } from './config'
import type { Database, Sql } from './db/database'
import type { SendMail } from './mail/mailer'
import type { FileStorage } from './files/storage'
import type { IdTokenVerifier } from './auth/idToken'
import type { DevIdentityProvider } from './auth/devIdentityProvider'
import type { SessionKeys } from './auth/sessions'
import type { ModelProvider } from './llm/provider'
import type { JobWorker } from './jobs/worker'
import type { ReplyWatch } from './chat/staleReplies'
import type { Bus } from './db/bus'
import type { ReplyRelay } from './chat/replyRelay'

export interface AppContext {
  cfg: Config
  db: Database
  sql: Sql
  sendMail: SendMail
  storage: FileStorage
  sessionKeys: SessionKeys
  /** Google's verifier, or the development identity provider's when no client id is configured. */
  idTokenVerifier: IdTokenVerifier | null
  devIdp: DevIdentityProvider | null
  /** The client's address: the socket's peer, or behind a trusted proxy the address it forwarded for. */
  clientAddress(request: Request): string
  cookieName: string
  /** The model every reply and build uses: configured, else a reachable local Ollama, else offline. */
  model: { provider: ModelProvider; describe(): { kind: string; model: string | null } }
  /** This process's durable-job worker (DESIGN §7); kick it after enqueueing so the job starts at once. */
  jobs: JobWorker
  /** Keeps streaming replies marked alive, and fails those whose writing process is gone. */
  replies: ReplyWatch
  /** Notices between the instances sharing the database (this process alone on the embedded one). */
  bus: Bus
  /** Replies readable from every instance while one of them writes them. */
  relay: ReplyRelay
}
