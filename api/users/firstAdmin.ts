// At start-up, an installation without an ADMIN gets one (DESIGN §12 ADMIN_EMAIL / ADMIN_PASSWORD).
import { randomBytes } from 'node:crypto'
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { LimitPeriod } from '../config'
import { hashPassword, passwordProblem } from '../auth/passwords'
import { findUserByEmail, insertUser } from './users'

export function generatePassword(): string {
  // Base64url plus one of each required class, so the strong-password rule always holds.
  return `${randomBytes(15).toString('base64url')}aZ7!`
}

export async function ensureFirstAdmin(
  sql: Sql,
  opts: { email: string; password: string | null; messageLimit: number; period: LimitPeriod; log: (s: string) => void },
) {
  const [admin] = await sql`select 1 from users where role = 'ADMIN' limit 1`
  if (admin) return
  if (opts.password) {
    const problem = passwordProblem(opts.password)
    if (problem) throw new Error(`ADMIN_PASSWORD is not strong enough: ${problem}`)
  }
  const password = opts.password ?? generatePassword()
  const hash = await hashPassword(password)
  // Instances starting together: one creates the admin, the others wait for it and then find it.
  const once = async (tx: Sql) => {
    await tx`select pg_advisory_xact_lock(7715002)`
    const [again] = await tx`select 1 from users where role = 'ADMIN' limit 1`
    if (again) return false
    await makeAdmin(tx, opts.email, hash, opts)
    return true
  }
  // Inside a caller's transaction (as in tests), a savepoint of it.
  const created: boolean =
    'savepoint' in sql ? await (sql as unknown as TransactionSql).savepoint((tx) => once(tx as unknown as Sql)) : await sql.begin((tx) => once(tx as unknown as Sql))
  if (!created) return
  if (!opts.password) opts.log(`First admin created: ${opts.email} / ${password}  (shown once; change it after signing in)`)
  else opts.log(`First admin created: ${opts.email}`)
}

async function makeAdmin(sql: Sql, email: string, hash: string, opts: { messageLimit: number; period: LimitPeriod }) {
  const existing = await findUserByEmail(sql, email)
  if (existing) {
    await sql`update users set role = 'ADMIN', password_hash = coalesce(password_hash, ${hash}), updated_at = now()
              where id = ${existing.id}`
  } else {
    await insertUser(sql, {
      email,
      name: 'Admin',
      role: 'ADMIN',
      passwordHash: hash,
      isEmailVerified: true,
      messageLimit: opts.messageLimit,
      period: opts.period,
    })
  }
}
