// Reading what ECPay sends back: the ReturnURL and PeriodReturnURL server
// notifications and the browser's OrderResultURL post. Nothing here trusts a
// field before the CheckMacValue over all of them has been verified.

import { TZDate } from '@date-fns/tz'
import { addMonths, addYears } from 'date-fns'
import { verifyCheckMacValue } from './checkMacValue'
import { ECPAY_TIME_ZONE } from './ecpayOrder'

/** The body ECPay expects from ReturnURL and PeriodReturnURL; anything else makes it resend. */
export const NOTIFICATION_ACK = '1|OK'

/** An `application/x-www-form-urlencoded` body as a plain field map (a repeated key keeps its last value). */
export function parseFormBody(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body))
}

export interface NotificationKeys {
  merchantId: string
  hashKey: string
  hashIV: string
}

export type VerifiedNotification = {
  ok: true
  /** 'first': ReturnURL / OrderResultURL for the order's (first) charge; 'period': a later periodic charge. */
  kind: 'first' | 'period'
  merchantTradeNo: string
  /** ECPay's TradeNo; PeriodReturnURL notifications do not carry one. */
  tradeNo: string | null
  /** RtnCode === '1'. */
  paid: boolean
  /** SimulatePaid === '1': sent from ECPay's vendor backend, must not be fulfilled. */
  simulated: boolean
  /** TradeAmt (first) or Amount (period), integer TWD; compare it with the stored order. */
  amount: number
  rtnCode: string
  rtnMsg: string
  /** PaymentDate (first) or ProcessDate (period) as sent, Taipei time; empty when absent. */
  processedAt: string
  /** Periodic charges that have succeeded so far; null on a one-time order's notification. */
  totalSuccessTimes: number | null
  /**
   * Identifies the charge this notification reports, identical across ECPay's
   * resends, so a handler can record each charge exactly once.
   */
  chargeKey: string
  customField1: string
}

export type NotificationResult = { ok: false; reason: string } | VerifiedNotification

function integerField(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null
}

/**
 * Verifies a ReturnURL, PeriodReturnURL or OrderResultURL body and extracts
 * what fulfilment needs. Being `ok` only means ECPay sent it for our merchant;
 * the caller still checks `paid`, `simulated`, the order and the amount.
 */
export function verifyNotification(fields: Record<string, string>, keys: NotificationKeys): NotificationResult {
  if (!fields.CheckMacValue) return { ok: false, reason: 'CheckMacValue is missing' }
  if (!verifyCheckMacValue(fields, keys.hashKey, keys.hashIV)) return { ok: false, reason: 'CheckMacValue does not match' }
  if (fields.MerchantID !== keys.merchantId) return { ok: false, reason: `MerchantID ${fields.MerchantID} is not ours` }
  const merchantTradeNo = fields.MerchantTradeNo
  if (!merchantTradeNo) return { ok: false, reason: 'MerchantTradeNo is missing' }

  // Only the first charge carries TradeAmt; a PeriodReturnURL notice carries
  // Amount instead (case matters: `amount` is an unrelated extra-info field).
  const kind = 'TradeAmt' in fields ? 'first' : 'Amount' in fields ? 'period' : null
  if (!kind) return { ok: false, reason: 'neither TradeAmt nor Amount is present' }
  const amount = integerField(kind === 'first' ? fields.TradeAmt : fields.Amount)
  if (amount === null) return { ok: false, reason: 'the amount is not an integer' }

  const tradeNo = kind === 'first' ? fields.TradeNo || null : null
  if (kind === 'first' && !tradeNo) return { ok: false, reason: 'TradeNo is missing' }
  const processedAt = (kind === 'first' ? fields.PaymentDate : fields.ProcessDate) ?? ''
  return {
    ok: true,
    kind,
    merchantTradeNo,
    tradeNo,
    paid: fields.RtnCode === '1',
    simulated: fields.SimulatePaid === '1',
    amount,
    rtnCode: fields.RtnCode ?? '',
    rtnMsg: fields.RtnMsg ?? '',
    processedAt,
    totalSuccessTimes: integerField(fields.TotalSuccessTimes),
    // A period notice has no TradeNo; a failed retry keeps TotalSuccessTimes
    // but not its ProcessDate, and Gwsr is the authorisation serial when paid.
    chargeKey:
      kind === 'first'
        ? `first:${tradeNo}`
        : `period:${merchantTradeNo}:${processedAt}:${fields.Gwsr ?? ''}`,
    customField1: fields.CustomField1 ?? '',
  }
}

/**
 * The new expiry after one paid period: counted from the current expiry when
 * it is still in the future (early renewals keep the time already paid for),
 * otherwise from now. Calendar arithmetic in Taipei time, where ECPay bills:
 * Jan 31 + 1 month is Feb 28 (29 in leap years), Feb 29 + 1 year is Feb 28.
 */
export function extendExpiry(currentExpiresAt: Date | null, now: Date, periodType: 'M' | 'Y'): Date {
  const from = currentExpiresAt && currentExpiresAt.getTime() > now.getTime() ? currentExpiresAt : now
  const start = new TZDate(from.getTime(), ECPAY_TIME_ZONE)
  const next = periodType === 'M' ? addMonths(start, 1) : addYears(start, 1)
  return new Date(next.getTime())
}
