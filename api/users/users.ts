// The users table: rows, their public shape (spec §3 User) and the queries other features share.
import type { Sql } from '../db/database'
import type { LimitPeriod } from '../config'
import { currentAllowance, periodMs } from '../limits/messageAllowance'

export type Role = 'ADMIN' | 'REGULAR' | 'DEVELOPER'
export const ROLES: Role[] = ['ADMIN', 'REGULAR', 'DEVELOPER']
export type SubscriptionType = 'FREEMIUM' | 'PREMIUM'
export type SubscriptionProvider = 'APPLE' | 'STRIPE' | 'ECPAY'

export interface UserRow {
  id: string
  email: string
  name: string
  role: Role
  password_hash: string | null
  profile_image_url: string | null
  oauth_profile_url: string | null
  subscription_type: SubscriptionType
  subscription_auto_renew: boolean
  subscription_expires_at: Date | null
  subscription_provider: SubscriptionProvider | null
  message_limit: number
  message_count: number
  message_reset_at: Date
  onboarding_current_step: string | null
  onboarding_completed: boolean
  is_suspended: boolean
  is_email_verified: boolean
  is_linked_to_oauth_account: boolean
  geo_latitude: number | null
  geo_longitude: number | null
  crisis_country: string | null
  created_at: Date
  updated_at: Date
  last_active_at: Date | null
}

export interface User {
  id: string
  email: string
  name: string
  role: Role
  profileImage: { url: string } | null
  oauthProfileUrl: string | null
  subscription: { type: SubscriptionType; autoRenew: boolean; expiresAt: string | null; provider: SubscriptionProvider | null }
  messageLimit: { limit: number; count: number; resetAt: string }
  onboardingData: { currentStep: string | null; isCompleted: boolean }
  geoLocation: { latitude: number; longitude: number } | null
  /** The country chosen for crisis help lines; null means automatic. */
  crisisCountry: string | null
  isSuspended: boolean
  isEmailVerified: boolean
  isLinkedToOAuthAccount: boolean
  createdAt: string
  updatedAt: string
}

export function toUser(row: UserRow, period: LimitPeriod, now = new Date()): User {
  const allowance = currentAllowance(
    { limit: row.message_limit, count: row.message_count, resetAt: row.message_reset_at },
    now,
    period,
  )
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    profileImage: row.profile_image_url ? { url: row.profile_image_url } : null,
    oauthProfileUrl: row.oauth_profile_url,
    subscription: {
      type: row.subscription_type,
      autoRenew: row.subscription_auto_renew,
      expiresAt: row.subscription_expires_at?.toISOString() ?? null,
      provider: row.subscription_provider,
    },
    messageLimit: { limit: allowance.limit, count: allowance.count, resetAt: allowance.resetAt.toISOString() },
    onboardingData: { currentStep: row.onboarding_current_step, isCompleted: row.onboarding_completed },
    geoLocation:
      row.geo_latitude === null || row.geo_longitude === null
        ? null
        : { latitude: row.geo_latitude, longitude: row.geo_longitude },
    crisisCountry: row.crisis_country ?? null,
    isSuspended: row.is_suspended,
    isEmailVerified: row.is_email_verified,
    isLinkedToOAuthAccount: row.is_linked_to_oauth_account,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select * from users where id = ${id}`
  return row ?? null
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select * from users where email = ${email.trim().toLowerCase()}`
  return row ?? null
}

export interface NewUser {
  email: string
  name: string
  role?: Role
  passwordHash?: string | null
  oauthProfileUrl?: string | null
  isEmailVerified?: boolean
  isLinkedToOAuthAccount?: boolean
  messageLimit: number
  period: LimitPeriod
}

export async function insertUser(sql: Sql, u: NewUser): Promise<UserRow> {
  const resetAt = new Date(Date.now() + periodMs(u.period))
  const [row] = await sql<UserRow[]>`
    insert into users (email, name, role, password_hash, oauth_profile_url, is_email_verified,
                       is_linked_to_oauth_account, message_limit, message_reset_at)
    values (${u.email.trim().toLowerCase()}, ${u.name}, ${u.role ?? 'REGULAR'}, ${u.passwordHash ?? null},
            ${u.oauthProfileUrl ?? null}, ${u.isEmailVerified ?? false}, ${u.isLinkedToOAuthAccount ?? false},
            ${u.messageLimit}, ${resetAt})
    returning *`
  return row
}
