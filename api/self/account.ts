// Account-level operations on a user, as plain functions over values.
import type { Sql } from '../db/database'
import type { Config } from '../config'
import type { FileStorage } from '../files/storage'
import { findUserById } from '../users/users'
import { cancelSubscription } from '../payments/cancel'

/**
 * What a payment notification keeps once its person is gone: the amounts, dates, result and ECPay's numbers a
 * bookkeeper needs. Card digits, the custom field (it names the account) and free text go.
 */
export const RETAINED_PAYMENT_FIELDS = [
  'MerchantID', 'MerchantTradeNo', 'TradeNo', 'TradeAmt', 'Amount', 'PaymentDate', 'ProcessDate', 'TradeDate',
  'PaymentType', 'RtnCode', 'TotalSuccessTimes', 'PeriodType', 'Frequency', 'ExecTimes', 'SimulatePaid',
]

/** How staff-audit rows name an account that no longer exists. */
export const DELETED_ACCOUNT = 'deleted account'

/**
 * Deletes the user and, through ON DELETE CASCADE, every row that belongs to them; then everything stored for them.
 * Rows that outlive the account lose every trace of the person in the same transaction: payment records keep only
 * what bookkeeping needs (the foreign key sets their owner to null), the staff audit log forgets the address, and
 * sign-in counters and development mail that name the address go. A running ECPay subscription is cancelled first
 * — ECPay would otherwise keep charging a card whose account is gone — and when ECPay cannot confirm, nothing is
 * deleted (the 502 asks to try again). tests/api/deletion.test.ts walks the whole catalogue afterwards.
 */
export async function deleteAccount(sql: Sql, storage: FileStorage, ecpay: Config['ecpay'], userId: string) {
  const user = await findUserById(sql, userId)
  if (!user) return
  if (user.subscription_type === 'PREMIUM' && user.subscription_auto_renew && user.subscription_provider === 'ECPAY')
    await cancelSubscription(sql, ecpay, user, 'ECPAY')
  const email = user.email.toLowerCase()
  await sql.begin(async (tx) => {
    await tx`
      update payment_notifications set fields = coalesce((
        select jsonb_object_agg(key, value) from jsonb_each(fields) where key in ${tx(RETAINED_PAYMENT_FIELDS)}), '{}')
      where user_id = ${userId}`
    await tx`update audit_log set subject_email = ${DELETED_ACCOUNT} where subject_id = ${userId} or lower(subject_email) = ${email}`
    await tx`update audit_log set actor_email = ${DELETED_ACCOUNT} where actor_id = ${userId} or lower(actor_email) = ${email}`
    await tx`
      delete from attempt_counts where strpos(lower(key), ${email}) > 0 or strpos(key, ${userId}) > 0
        or key in (select 'oauth-acct:' || subject from user_identities where user_id = ${userId})`
    await tx`delete from mail_outbox where lower(to_address) = ${email}`
    await tx`delete from users where id = ${userId}`
  })
  // Every feature stores a user's files under their id; removed after the commit, so a failed delete loses nothing.
  await storage.removeOwner(userId)
}
