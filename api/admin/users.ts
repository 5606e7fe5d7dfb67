// Admin user management (spec §4, §6, §7 "Users (admin)"): the paged list and the changes an ADMIN may make.
import type { Sql } from '../db/database'
import { auditActionOf, recordAudit, type Party } from './auditLog'
import type { Role, UserRow } from '../users/users'
import { hashPassword } from '../auth/passwords'
import { revokeUserSessions } from '../auth/sessions'

export const USER_SORTS = ['name', 'email', 'role', 'createdAt', 'subscription'] as const
export type UserSort = (typeof USER_SORTS)[number]

export interface UserListQuery {
  page: number
  pageSize: number
  sort: UserSort
  order: 'asc' | 'desc'
  /** Part of a name or an email, any case. */
  q: string | null
  role: Role | null
}

// A search text is matched literally: % and _ typed by the admin are not wildcards.
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => '\\' + c)}%`

export async function listUsers(sql: Sql, query: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
  const column = {
    name: sql`lower(name)`,
    email: sql`email`,
    role: sql`role`,
    createdAt: sql`created_at`,
    subscription: sql`subscription_type`,
  }[query.sort]
  const direction = query.order === 'asc' ? sql`asc` : sql`desc`
  const pattern = query.q ? likePattern(query.q) : null
  const where = sql`where true
    ${pattern ? sql`and (name ilike ${pattern} or email ilike ${pattern})` : sql``}
    ${query.role ? sql`and role = ${query.role}` : sql``}`
  const [rows, [{ total }]] = await Promise.all([
    sql<UserRow[]>`select * from users ${where}
      order by ${column} ${direction}, id ${direction}
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
    sql<{ total: number }[]>`select count(*)::int as total from users ${where}`,
  ])
  return { rows, total }
}

export type UserChange =
  | { role: 'REGULAR' | 'DEVELOPER' }
  | { isSuspended: boolean }
  | { isEmailVerified: boolean }
  | { isLinkedToOAuthAccount: boolean }
  | { password: string }
  | { email: string }

export type UserAction = 'delete' | 'role' | 'isSuspended' | 'isEmailVerified' | 'isLinkedToOAuthAccount' | 'password' | 'email'

/** Why the acting ADMIN may not do this to `target` (spec §6), or null when it is allowed. */
export function adminRefusal(actorId: string, target: Pick<UserRow, 'id' | 'role'>, action: UserAction, change?: UserChange): string | null {
  if (action === 'delete' && target.id === actorId) return 'You cannot delete your own account'
  if (target.role !== 'ADMIN') return null
  if (action === 'delete') return 'An ADMIN account cannot be deleted'
  if (action === 'role') return 'The role of an ADMIN account cannot be changed'
  if (change && 'isSuspended' in change && change.isSuspended) return 'An ADMIN account cannot be suspended'
  return null
}

export async function emailTaken(sql: Sql, email: string, exceptUserId: string): Promise<boolean> {
  const [row] = await sql`select 1 from users where email = ${email} and id <> ${exceptUserId}`
  return Boolean(row)
}

/**
 * Applies one change in one transaction, with its audit record and what it implies: suspension and a new password end the
 * user's sessions (except the acting admin's own), and unlinking removes the Google identities so the
 * flag and the sign-in path agree.
 */
export async function changeUser(
  sql: Sql,
  target: Pick<UserRow, 'id' | 'email'>,
  change: UserChange,
  actor: Party & { sessionId: string },
): Promise<UserRow> {
  const userId = target.id
  const actorSessionId = actor.sessionId
  const passwordHash = 'password' in change ? await hashPassword(change.password) : null
  return sql.begin(async (tx) => {
    // Written with the change, so there is never a change without its record (or a record without a change).
    await recordAudit(tx, actor, target, auditActionOf(change))
    let row: UserRow
    if ('role' in change) {
      ;[row] = await tx<UserRow[]>`update users set role = ${change.role}, updated_at = now() where id = ${userId} returning *`
    } else if ('isSuspended' in change) {
      ;[row] = await tx<UserRow[]>`update users set is_suspended = ${change.isSuspended}, updated_at = now() where id = ${userId} returning *`
      if (change.isSuspended) await revokeUserSessions(tx, userId)
    } else if ('isEmailVerified' in change) {
      ;[row] = await tx<UserRow[]>`update users set is_email_verified = ${change.isEmailVerified}, updated_at = now() where id = ${userId} returning *`
    } else if ('isLinkedToOAuthAccount' in change) {
      ;[row] = await tx<UserRow[]>`
        update users set is_linked_to_oauth_account = ${change.isLinkedToOAuthAccount}, updated_at = now()
        where id = ${userId} returning *`
      if (!change.isLinkedToOAuthAccount) await tx`delete from user_identities where user_id = ${userId}`
    } else if ('password' in change) {
      ;[row] = await tx<UserRow[]>`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${userId} returning *`
      await tx`update password_reset_tokens set used_at = now() where user_id = ${userId} and used_at is null`
      // An admin setting their own password stays signed in here; every other session ends.
      await tx`update sessions set revoked_at = now()
               where user_id = ${userId} and revoked_at is null and id <> ${actorSessionId}`
    } else {
      ;[row] = await tx<UserRow[]>`update users set email = ${change.email}, updated_at = now() where id = ${userId} returning *`
    }
    return row
  })
}
