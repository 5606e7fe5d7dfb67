// One postgres.js client for the whole process: real PostgreSQL when DATABASE_URL is set,
// otherwise an embedded PGlite served over a private unix socket (DESIGN §4).
import postgres from 'postgres'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type Sql = postgres.Sql<{}>
export type DatabaseKind = 'embedded' | 'postgres'

export interface Database {
  sql: Sql
  kind: DatabaseKind
  /** Server version string, e.g. "15.19". */
  version(): Promise<string>
  close(): Promise<void>
}

const pgOptions = {
  // Quiet NOTICEs such as "relation already exists, skipping" from idempotent migrations.
  onnotice: () => {},
  transform: { undefined: null },
  connection: { application_name: 'ideal-self' },
} as const

async function version(sql: Sql) {
  const [row] = await sql<{ server_version: string }[]>`show server_version`
  return row.server_version
}

export async function openPostgres(url: string, max = 10): Promise<Database> {
  // Reconnecting waits at most 2 s (postgres.js's own wait grows to 20 s after a few losses in a row, which kept
  // the app away from a database that was back for that long after a restart).
  const backoff = (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 2)
  const sql = postgres(url, { ...pgOptions, max, idle_timeout: 30, connect_timeout: 5, backoff })
  return { sql, kind: 'postgres', version: () => version(sql), close: () => sql.end({ timeout: 5 }) }
}

export async function openEmbedded(dataDir: string): Promise<Database> {
  // Pinned together in package.json: pglite-socket is built against one exact PGlite.
  const { PGlite } = await import('@electric-sql/pglite')
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket')
  // pgvector, for memory recall by embeddings (sql/0011_memories.sql creates it where it is available).
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const dir = join(dataDir, 'pglite')
  mkdirSync(dir, { recursive: true })
  const db = await PGlite.create(dir, { extensions: { vector } })
  // A unix socket in a private temp folder: nothing else on the machine can reach the database.
  const socketDir = mkdtempSync(join(tmpdir(), 'idealself-pg-'))
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 1 })
  await server.start()
  // PGlite runs one query at a time; one pooled connection keeps transactions from interleaving.
  const sql = postgres({ ...pgOptions, host: socketDir, port: 5432, database: 'postgres', username: 'postgres', max: 1 })
  return {
    sql,
    kind: 'embedded',
    version: () => version(sql),
    async close() {
      await sql.end({ timeout: 5 })
      await server.stop()
      // close() flushes PGlite's files so a restart finds every committed row.
      await db.close()
      rmSync(socketDir, { recursive: true, force: true })
    },
  }
}

export function openDatabase(opts: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openEmbedded(opts.dataDir)
}
