// Password-reset tokens: random, single use, one hour, stored only as a SHA-256 hash.
import { randomBytes, createHash } from 'node:crypto'
import type { Sql } from '../db/database'
import { inBatches } from '../jobs/periodic'

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export async function issueResetToken(sql: Sql, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await sql`insert into password_reset_tokens (user_id, token_hash, expires_at)
            values (${userId}, ${hashToken(token)}, ${new Date(now.getTime() + RESET_TOKEN_TTL_MS)})`
  return token
}

/** The user a live token belongs to, without using it up. */
export async function resetTokenUser(sql: Sql, token: string): Promise<string | null> {
  const [row] = await sql<{ user_id: string }[]>`
    select user_id from password_reset_tokens
    where token_hash = ${hashToken(token)} and used_at is null and expires_at > now()`
  return row?.user_id ?? null
}

/** Uses the token up and sets the password in one transaction; null when the token is not live. */
export async function consumeResetToken(sql: Sql, token: string, passwordHash: string): Promise<string | null> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ user_id: string }[]>`
      update password_reset_tokens set used_at = now()
      where token_hash = ${hashToken(token)} and used_at is null and expires_at > now()
      returning user_id`
    if (!row) return null
    await tx`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${row.user_id}`
    // Every other outstanding link of this user stops working too.
    await tx`update password_reset_tokens set used_at = now() where user_id = ${row.user_id} and used_at is null`
    await tx`update sessions set revoked_at = now() where user_id = ${row.user_id} and revoked_at is null`
    return row.user_id
  })
}

/** Forgets the links past their hour (used or not): they can never be used again. Returns how many. */
export async function dropExpiredResetTokens(sql: Sql): Promise<number> {
  return inBatches(1000, async (limit) => {
    const rows = await sql`
      delete from password_reset_tokens where id in (
        select id from password_reset_tokens where expires_at <= now() limit ${limit} for update skip locked)
      returning id`
    return rows.length
  })
}
