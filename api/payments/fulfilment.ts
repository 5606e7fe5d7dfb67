// Turning paid ECPay charges into Premium time on the user row.
import type { TransactionSql } from 'postgres'
import { extendExpiry } from './ecpay/ecpayNotification'
import type { UserRow } from '../users/users'

export interface Grant {
  userId: string
  periodType: 'M' | 'Y'
  /** Paid periods to add; more than one when earlier periodic notices never arrived. */
  periods: number
  /** The order paying for them is a schedule ECPay will charge again. */
  renews: boolean
}

/**
 * Adds paid periods to the user's Premium. Call inside the transaction that records the charge: the
 * user row is locked so concurrent notices (or the expiry sweep) cannot lose each other's writes.
 */
export async function grantPremium(tx: TransactionSql<{}>, grant: Grant, now: Date): Promise<UserRow> {
  const [user] = await tx<UserRow[]>`select * from users where id = ${grant.userId} for update`
  let expiresAt = user.subscription_expires_at
  for (let i = 0; i < grant.periods; i++) expiresAt = extendExpiry(expiresAt, now, grant.periodType)
  // A one-time purchase (or a late charge of a cancelled schedule) must not switch off the renewal
  // of another ECPay schedule that is still running.
  const stillRenewing =
    user.subscription_type === 'PREMIUM' && user.subscription_provider === 'ECPAY' && user.subscription_auto_renew
  const [row] = await tx<UserRow[]>`
    update users set subscription_type = 'PREMIUM', subscription_provider = 'ECPAY',
      subscription_auto_renew = ${grant.renews || stillRenewing}, subscription_expires_at = ${expiresAt},
      updated_at = now()
    where id = ${grant.userId} returning *`
  return row
}
