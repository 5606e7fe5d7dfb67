// Cancelling the signed-in user's auto-renewal. ECPay's schedule is stopped first; only once ECPay
// confirms is anything written, so a refusal or silence leaves the subscription exactly as it was.
import type { Sql } from '../db/database'
import type { Config } from '../config'
import { buildCancelRequest, cancelPeriod } from './ecpay/ecpayPeriodAction'
import { HttpError, badRequest } from '../http/errors'
import type { SubscriptionProvider, UserRow } from '../users/users'
import { activeSubscriptionOrder } from './orders'

// Subscriptions these providers bill are changed where they were bought; the API cannot reach them.
const MANAGED_ELSEWHERE: Record<Exclude<SubscriptionProvider, 'ECPAY'>, string> = {
  APPLE: 'Subscriptions bought in the App Store are managed there: cancel it in the App Store app on your device.',
  STRIPE: 'Subscriptions billed by Stripe are managed there: cancel it through the Stripe billing link in your receipt email.',
}

export async function cancelSubscription(
  sql: Sql,
  ecpay: Config['ecpay'],
  user: UserRow,
  provider: SubscriptionProvider,
  opts: { fetchImpl?: typeof fetch; now?: Date } = {},
): Promise<UserRow> {
  if (user.subscription_type !== 'PREMIUM' || !user.subscription_auto_renew)
    throw badRequest('You have no auto-renewing subscription to cancel.')
  const billedBy = user.subscription_provider
  if (billedBy === 'APPLE' || billedBy === 'STRIPE') throw badRequest(MANAGED_ELSEWHERE[billedBy])
  if (provider !== 'ECPAY') throw badRequest(MANAGED_ELSEWHERE[provider])
  // The WHERE on user_id is the ownership check: only the caller's own schedule is ever touched.
  const order = billedBy === 'ECPAY' ? await activeSubscriptionOrder(sql, user.id) : null
  if (!order) throw badRequest('No running ECPay subscription was found for this account.')

  const now = opts.now ?? new Date()
  const request = buildCancelRequest(
    { merchantId: ecpay.merchantId, merchantTradeNo: order.merchant_trade_no, timeStamp: Math.floor(now.getTime() / 1000) },
    ecpay,
  )
  const outcome = await cancelPeriod(ecpay.endpoint, request, opts.fetchImpl)
  if (!outcome.ok) {
    const why = outcome.rtnCode === null ? `ECPay did not answer (${outcome.rtnMsg})` : `ECPay refused (${outcome.rtnCode}: ${outcome.rtnMsg})`
    throw new HttpError(502, 'BadGateway', `${why}. Your subscription was not cancelled; please try again later.`)
  }
  // Premium stays until the expiry already paid for; only the renewal stops.
  return sql.begin(async (tx) => {
    await tx`update payment_orders set status = 'cancelled', cancelled_at = ${now} where id = ${order.id}`
    const [row] = await tx<UserRow[]>`
      update users set subscription_auto_renew = false, updated_at = now() where id = ${user.id} returning *`
    return row
  })
}
