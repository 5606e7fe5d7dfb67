// The browser's return from ECPay's cashier (OrderResultURL). It arrives as a cross-site POST, so the
// SameSite=Lax session cookie is not sent with it: the signed fields are all there is to go on. It
// only decides which page to show; Premium is granted by the ReturnURL notice alone.
import type { Sql } from '../db/database'
import { verifyNotification } from './ecpay/ecpayNotification'
import { findOrder } from './orders'
import { recordNotification } from './notifications'
import { subscriptionPageUrl, type PaymentSettings } from './settings'

/** Records the post and returns the app page to send the browser to (with a 303). */
export async function orderResultLocation(
  sql: Sql,
  settings: Pick<PaymentSettings, 'ecpay' | 'production' | 'publicUrl'>,
  fields: Record<string, string>,
): Promise<string> {
  const notice = verifyNotification(fields, settings.ecpay)
  const order = notice.ok ? await findOrder(sql, notice.merchantTradeNo) : null
  const success = Boolean(
    notice.ok && order && notice.kind === 'first' && notice.paid && !(notice.simulated && settings.production),
  )
  await recordNotification(sql, {
    kind: 'order-result',
    fields,
    verified: notice.ok,
    outcome: notice.ok ? `shown ${success ? 'success' : 'failure'}${order ? '' : ' (no such order)'}` : `refused: ${notice.reason}`,
    merchantTradeNo: fields.MerchantTradeNo,
    userId: order?.user_id,
  })
  return subscriptionPageUrl(settings.publicUrl, {
    success,
    planId: order?.plan_id,
    planType: order?.kind,
    provider: 'ECPAY',
  })
}
