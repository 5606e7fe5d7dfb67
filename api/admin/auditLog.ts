// A record of what staff did to accounts (spec §6 powers): who, what, when — never any message content.
import type { Sql } from '../db/database'
import type { UserChange } from './users'

export type AuditAction =
  | 'role-changed'
  | 'suspended'
  | 'unsuspended'
  | 'email-verified'
  | 'email-unverified'
  | 'linked-oauth'
  | 'unlinked-oauth'
  | 'password-set'
  | 'email-changed'
  | 'deleted'

export interface AuditEntry {
  id: string
  actorEmail: string
  subjectEmail: string
  action: AuditAction
  createdAt: string
}

export interface Party {
  id: string
  email: string
}

export function auditActionOf(change: UserChange): AuditAction {
  if ('role' in change) return 'role-changed'
  if ('isSuspended' in change) return change.isSuspended ? 'suspended' : 'unsuspended'
  if ('isEmailVerified' in change) return change.isEmailVerified ? 'email-verified' : 'email-unverified'
  if ('isLinkedToOAuthAccount' in change) return change.isLinkedToOAuthAccount ? 'linked-oauth' : 'unlinked-oauth'
  if ('password' in change) return 'password-set'
  return 'email-changed'
}

/** A subject without an id is an account already deleted; its email is what the log keeps of it. */
export async function recordAudit(sql: Sql, actor: Party, subject: { id: string | null; email: string }, action: AuditAction): Promise<void> {
  await sql`insert into audit_log (actor_id, actor_email, subject_id, subject_email, action)
            values (${actor.id}, ${actor.email}, ${subject.id}, ${subject.email}, ${action})`
}

export async function auditEntries(sql: Sql, page: { limit: number; offset: number }): Promise<{ entries: AuditEntry[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    sql<{ id: string; actor_email: string; subject_email: string; action: AuditAction; created_at: Date }[]>`
      select id, actor_email, subject_email, action, created_at from audit_log
      order by created_at desc, id desc limit ${page.limit} offset ${page.offset}`,
    sql<{ total: number }[]>`select count(*)::int as total from audit_log`,
  ])
  return {
    entries: rows.map((r) => ({
      id: r.id,
      actorEmail: r.actor_email,
      subjectEmail: r.subject_email,
      action: r.action,
      createdAt: r.created_at.toISOString(),
    })),
    total,
  }
}
