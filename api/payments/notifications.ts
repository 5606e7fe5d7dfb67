// ECPay's server-to-server notifications: ReturnURL for an order's first charge, PeriodReturnURL for
// every later charge of a schedule. Each one is verified, checked against its order, recorded as
// received, and turned into Premium time at most once.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import {
  NOTIFICATION_ACK,
  parseFormBody,
  verifyNotification,
  type VerifiedNotification,
} from './ecpay/ecpayNotification'
import { grantPremium } from './fulfilment'
import type { OrderRow } from './orders'
import type { PaymentSettings } from './settings'

export type NotificationKind = 'return' | 'period' | 'order-result'

// ECPay's notices are a couple of kilobytes at most; a far larger body is not ECPay's and is not stored.
const MAX_BODY_LENGTH = 16 * 1024

/** The form fields of a notification body, or null when it is too large to be one. */
export function readNotificationBody(body: unknown): Record<string, string> | null {
  const text = typeof body === 'string' ? body : ''
  return text.length > MAX_BODY_LENGTH ? null : parseFormBody(text)
}

export interface NotificationRecord {
  kind: NotificationKind
  fields: Record<string, string>
  verified: boolean
  outcome: string
  /** Taken from the fields as sent; trustworthy only when verified. */
  merchantTradeNo?: string | null
  userId?: string | null
  chargeKey?: string | null
}

export async function recordNotification(sql: Sql | TransactionSql<{}>, n: NotificationRecord): Promise<void> {
  await sql`
    insert into payment_notifications (kind, merchant_trade_no, user_id, fields, verified, outcome, charge_key)
    values (${n.kind}, ${n.merchantTradeNo?.slice(0, 64) ?? null}, ${n.userId ?? null}, ${sql.json(n.fields)},
            ${n.verified}, ${n.outcome}, ${n.chargeKey ?? null})`
}

/** The plain-text body ECPay reads; anything but `1|OK` makes it resend, up to four more times. */
export interface NotificationReply {
  status: number
  text: string
}

const acknowledged: NotificationReply = { status: 200, text: NOTIFICATION_ACK }
// A refusal is not acknowledged: ECPay's resends and its vendor backend then show that something
// needs a person, and the notice is on record here either way.
const refusal = (reason: string): NotificationReply => ({ status: 400, text: `0|${reason}` })

type Settlement =
  | { refused: string }
  | {
      outcome: string
      /** Set when this notice settled its charge, so resends of it are recognised. */
      chargeKey: string | null
    }

/**
 * Verifies, records and applies one notification. `endpoint` is where it arrived; a first-charge
 * notice at the periodic endpoint (or the reverse) is refused rather than guessed at.
 */
export async function receiveNotification(
  sql: Sql,
  settings: Pick<PaymentSettings, 'ecpay' | 'production'>,
  endpoint: 'return' | 'period',
  fields: Record<string, string>,
  now = new Date(),
): Promise<NotificationReply> {
  const notice = verifyNotification(fields, settings.ecpay)
  const expectedKind = endpoint === 'return' ? 'first' : 'period'
  if (!notice.ok || notice.kind !== expectedKind) {
    const reason = notice.ok ? `a ${notice.kind}-charge notice does not belong at this URL` : notice.reason
    await recordNotification(sql, {
      kind: endpoint,
      fields,
      verified: notice.ok,
      outcome: `refused: ${reason}`,
      merchantTradeNo: fields.MerchantTradeNo,
    })
    return refusal(reason)
  }
  return sql.begin(async (tx) => {
    // The order row lock serialises notices about the same order, resends included.
    const [order] = await tx<OrderRow[]>`
      select * from payment_orders where merchant_trade_no = ${notice.merchantTradeNo} for update`
    const settlement: Settlement = order
      ? await settle(tx, order, notice, settings.production, now)
      : { refused: 'no order has this MerchantTradeNo' }
    const refused = 'refused' in settlement
    await recordNotification(tx, {
      kind: endpoint,
      fields,
      verified: true,
      outcome: refused ? `refused: ${settlement.refused}` : settlement.outcome,
      merchantTradeNo: notice.merchantTradeNo,
      userId: order?.user_id,
      chargeKey: refused ? null : settlement.chargeKey,
    })
    return refused ? refusal(settlement.refused) : acknowledged
  })
}

async function settle(
  tx: TransactionSql<{}>,
  order: OrderRow,
  notice: VerifiedNotification,
  production: boolean,
  now: Date,
): Promise<Settlement> {
  if (notice.amount !== order.amount_twd) return { refused: `amount ${notice.amount} is not the order's ${order.amount_twd} TWD` }
  if (notice.kind === 'period' && order.kind !== 'subscription') return { refused: 'a periodic charge for a one-time order' }
  const [seen] = await tx`select 1 from payment_notifications where charge_key = ${notice.chargeKey}`
  if (seen) return { outcome: 'duplicate: this charge is already recorded; nothing changed', chargeKey: null }
  // SimulatePaid=1 comes from ECPay's vendor backend, where anyone with the merchant login can
  // "pay" an order. In production that grants nothing. Outside production it is honoured, so the
  // stage backend's simulate button can stand in for a card while developing; the outcome says so.
  if (notice.simulated && production)
    return { outcome: 'ignored: simulated payment (SimulatePaid=1) in production', chargeKey: null }
  const simulatedNote = notice.simulated ? ' (simulated payment, honoured outside production)' : ''
  const result = notice.kind === 'first' ? await settleFirst(tx, order, notice, now) : await settlePeriodic(tx, order, notice, now)
  return { outcome: result + simulatedNote, chargeKey: notice.chargeKey }
}

async function settleFirst(tx: TransactionSql<{}>, order: OrderRow, notice: VerifiedNotification, now: Date): Promise<string> {
  if (!notice.paid) {
    await tx`update payment_orders set status = 'failed' where id = ${order.id} and status = 'pending'`
    return `payment failed (RtnCode ${notice.rtnCode}: ${notice.rtnMsg})`
  }
  if (order.status === 'paid' || order.status === 'cancelled') return `ignored: the order is already ${order.status}`
  const user = await grantPremium(
    tx,
    { userId: order.user_id, periodType: order.period_type, periods: 1, renews: order.kind === 'subscription' },
    now,
  )
  await tx`
    update payment_orders set status = 'paid', ecpay_trade_no = ${notice.tradeNo}, paid_at = ${now}, periods_paid = 1
    where id = ${order.id}`
  return `paid: Premium until ${user.subscription_expires_at?.toISOString()}`
}

async function settlePeriodic(tx: TransactionSql<{}>, order: OrderRow, notice: VerifiedNotification, now: Date): Promise<string> {
  if (!notice.paid) return `periodic charge failed (RtnCode ${notice.rtnCode}: ${notice.rtnMsg}); Premium not extended`
  // TotalSuccessTimes counts the first charge too, so it says how many periods are paid in all;
  // a notice lost after ECPay's last retry is made good by the next one.
  const paidInAll = notice.totalSuccessTimes ?? order.periods_paid + 1
  const periods = paidInAll - order.periods_paid
  if (periods <= 0) return `ignored: charge ${paidInAll} is already counted`
  const stillScheduled = order.status !== 'cancelled'
  const user = await grantPremium(
    tx,
    { userId: order.user_id, periodType: order.period_type, periods, renews: stillScheduled },
    now,
  )
  await tx`
    update payment_orders set periods_paid = ${paidInAll}, status = ${stillScheduled ? 'paid' : 'cancelled'},
      paid_at = coalesce(paid_at, ${now})
    where id = ${order.id}`
  return `periodic charge ${paidInAll} paid: Premium until ${user.subscription_expires_at?.toISOString()}`
}
