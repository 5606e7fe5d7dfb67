// Account-level operations on a user, as plain functions over values.
import type { Sql } from '../db/database'
import type { Config } from '../config'
import type { FileStorage } from '../files/storage'
import { findUserById } from '../users/users'
import { cancelSubscription } from '../payments/cancel'

/**
 * Deletes the user and, through ON DELETE CASCADE, every row that belongs to them; then everything stored for them. A running
 * ECPay subscription is cancelled first — ECPay would otherwise keep charging a card whose account is gone — and
 * when ECPay cannot confirm, nothing is deleted (the 502 asks to try again).
 */
export async function deleteAccount(sql: Sql, storage: FileStorage, ecpay: Config['ecpay'], userId: string) {
  const user = await findUserById(sql, userId)
  if (user?.subscription_type === 'PREMIUM' && user.subscription_auto_renew && user.subscription_provider === 'ECPAY')
    await cancelSubscription(sql, ecpay, user, 'ECPAY')
  await sql`delete from users where id = ${userId}`
  // Every feature stores a user's files under their id; removed after the commit, so a failed delete loses nothing.
  await storage.removeOwner(userId)
}
