// Sessions: the cookie holds a signed token naming a row of `sessions`, so sign-out, suspension and
// deletion take effect on the very next request.
import { SignJWT, jwtVerify } from 'jose'
import type { Sql } from '../db/database'
import { wholeRows } from '../db/connectionErrors'
import type { UserRow } from '../users/users'
import { inBatches } from '../jobs/periodic'

export interface SessionKeys {
  secret: Uint8Array
  days: number
  /** The secret as a WebCrypto key, imported once: importing it for each request was a quarter of a session check. */
  verifyKey: Promise<CryptoKey>
  /**
   * Tokens already verified under this secret, with their session and expiry: a person's every request carries the
   * same token, and checking its signature again was the largest single cost of a signed-in request. The session
   * row is still read each time, so sign-out, suspension and deletion take effect at once; a token is trusted only
   * until its own expiry. Bounded, oldest entries first out.
   */
  verified: Map<string, { sessionId: string; expiresAt: number }>
}

const VERIFIED_MAX = 10_000

export const sessionKeys = (secret: string, days: number): SessionKeys => {
  const raw = new TextEncoder().encode(secret)
  return { secret: raw, days, verified: new Map(), verifyKey: crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']) }
}

export async function createSession(
  sql: Sql,
  keys: SessionKeys,
  userId: string,
  meta: { userAgent?: string | null; ip?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + keys.days * 86_400_000)
  const [row] = await sql<{ id: string }[]>`
    insert into sessions (user_id, expires_at, user_agent, ip)
    values (${userId}, ${expiresAt}, ${meta.userAgent?.slice(0, 400) ?? null}, ${meta.ip ?? null})
    returning id`
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(row.id)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keys.secret)
  return { token, expiresAt }
}

export async function sessionIdFromToken(keys: SessionKeys, token: string | undefined | null): Promise<string | null> {
  if (!token) return null
  const { verified } = keys
  const known = verified.get(token)
  if (known && known.expiresAt > Date.now()) return known.sessionId
  if (known) verified.delete(token)
  try {
    const { payload } = await jwtVerify(token, await keys.verifyKey, { algorithms: ['HS256'] })
    if (typeof payload.sub !== 'string') return null
    if (typeof payload.exp === 'number') {
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!)
      verified.set(token, { sessionId: payload.sub, expiresAt: payload.exp * 1000 })
    }
    return payload.sub
  } catch {
    return null
  }
}

/**
 * The signed-in user of a live session, suspended or not (the guard decides what that means). A read the connection
 * was lost under throws, never answers null: that would sign the person out for a moment.
 */
export async function sessionUser(sql: Sql, sessionId: string): Promise<UserRow | null> {
  const [row] = wholeRows(
    await sql<UserRow[]>`
      select u.* from sessions s join users u on u.id = s.user_id
      where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()`,
  )
  return row ?? null
}

export async function revokeSession(sql: Sql, sessionId: string) {
  await sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`
}

export async function revokeUserSessions(sql: Sql, userId: string) {
  await sql`update sessions set revoked_at = now() where user_id = ${userId} and revoked_at is null`
}

/**
 * Forgets the sessions that can no longer be used (expired or signed out) and began more than `keptMs` ago: their
 * device and address outlive no purpose, and only the admin dashboard's recent days still count sign-ins from them.
 * Rows are claimed with `skip locked`, so sweeps of several instances at once never wait on each other. Returns
 * how many were forgotten.
 */
export async function dropEndedSessions(sql: Sql, keptMs: number): Promise<number> {
  return inBatches(1000, async (limit) => {
    const rows = await sql`
      delete from sessions where id in (
        select id from sessions
        where (expires_at <= now() or revoked_at is not null) and created_at < now() - ${keptMs} * interval '1 millisecond'
        limit ${limit} for update skip locked)
      returning id`
    return rows.length
  })
}
