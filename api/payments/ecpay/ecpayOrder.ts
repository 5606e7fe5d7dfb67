// Builds the AioCheckOut V5 form for a credit-card order (one-time or
// periodic) and the HTML page that carries the browser to ECPay. ECPay only
// accepts the order from the browser, so the server's job ends at a signed
// field set and an auto-submitting form.

import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { type EcpayKeys, signFields } from './checkMacValue'

export const ECPAY_TIME_ZONE = 'Asia/Taipei'

export type EcpayLanguage = 'ENG' | 'KOR' | 'JPN' | 'CHI'
const LANGUAGES: readonly string[] = ['ENG', 'KOR', 'JPN', 'CHI']

export type PeriodType = 'D' | 'M' | 'Y'

export interface PeriodSchedule {
  type: PeriodType
  frequency: number
  execTimes: number
  periodReturnUrl: string
}

export interface CheckoutOrder {
  merchantId: string
  tradeNo: string
  tradeDate: Date
  amount: number
  itemName: string
  tradeDesc: string
  returnUrl: string
  orderResultUrl: string
  /** Omit for ECPay's default page language, Traditional Chinese. */
  language?: EcpayLanguage
  period?: PeriodSchedule
  customField1?: string
}

// Ranges from ECPay's periodic-payment docs; ExecTimes ≥ 2 because several
// integrations report that a one-execution schedule is refused.
const PERIOD_LIMITS: Record<PeriodType, { frequency: [number, number]; execTimes: [number, number] }> = {
  D: { frequency: [1, 365], execTimes: [2, 999] },
  M: { frequency: [1, 12], execTimes: [2, 99] },
  Y: { frequency: [1, 1], execTimes: [2, 9] },
}

/** ECPay's date format, `yyyy/MM/dd HH:mm:ss`, in Taipei time (ECPay's own clock). */
export function formatEcpayDate(date: Date): string {
  return format(new TZDate(date, ECPAY_TIME_ZONE), 'yyyy/MM/dd HH:mm:ss')
}

function fail(message: string): never {
  throw new Error(`ECPay order: ${message}`)
}

// ECPay's limits count characters, so astral characters count once.
function charCount(s: string): number {
  return [...s].length
}

function requireText(name: string, value: string, max: number): void {
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} is required`)
  if (charCount(value) > max) fail(`${name} must be at most ${max} characters (got ${charCount(value)})`)
  if (/\p{Cc}/u.test(value)) fail(`${name} must not contain control characters`)
}

function requireUrl(name: string, value: string): void {
  requireText(name, value, 200)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    fail(`${name} must be an absolute URL (got ${JSON.stringify(value)})`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`${name} must be http(s)`)
}

function requireIntegerIn(name: string, value: number, [min, max]: [number, number]): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max} (got ${value})`)
  }
}

function validateOrder(order: CheckoutOrder): void {
  if (!/^[A-Za-z0-9]{1,10}$/.test(order.merchantId)) fail('MerchantID must be 1-10 letters or digits')
  if (!/^[A-Za-z0-9]{1,20}$/.test(order.tradeNo)) fail('MerchantTradeNo must be 1-20 letters or digits')
  if (!(order.tradeDate instanceof Date) || Number.isNaN(order.tradeDate.getTime())) fail('tradeDate must be a valid Date')
  if (!Number.isSafeInteger(order.amount) || order.amount <= 0) {
    fail(`TotalAmount must be a positive integer number of TWD (got ${order.amount})`)
  }
  requireText('ItemName', order.itemName, 400)
  requireText('TradeDesc', order.tradeDesc, 200)
  // ECPay asks for "no special characters" in TradeDesc without listing them,
  // so allow only letters, digits, spaces and plain punctuation.
  if (!/^[\p{L}\p{N} .,\-_()]+$/u.test(order.tradeDesc)) {
    fail('TradeDesc may contain only letters, digits, spaces and . , - _ ( )')
  }
  requireUrl('ReturnURL', order.returnUrl)
  requireUrl('OrderResultURL', order.orderResultUrl)
  if (order.language !== undefined && !LANGUAGES.includes(order.language)) {
    fail(`Language must be one of ${LANGUAGES.join(', ')} or omitted (got ${JSON.stringify(order.language)})`)
  }
  if (order.customField1 !== undefined && order.customField1 !== '') requireText('CustomField1', order.customField1, 50)
  if (order.period) {
    const limits = PERIOD_LIMITS[order.period.type]
    if (!limits) fail(`PeriodType must be D, M or Y (got ${JSON.stringify(order.period.type)})`)
    requireIntegerIn('Frequency', order.period.frequency, limits.frequency)
    requireIntegerIn('ExecTimes', order.period.execTimes, limits.execTimes)
    requireUrl('PeriodReturnURL', order.period.periodReturnUrl)
  }
}

/** The complete, signed AioCheckOut V5 field set for a credit-card order. */
export function buildCheckoutFields(order: CheckoutOrder, keys: EcpayKeys): Record<string, string> {
  validateOrder(order)
  const fields: Record<string, string> = {
    MerchantID: order.merchantId,
    MerchantTradeNo: order.tradeNo,
    MerchantTradeDate: formatEcpayDate(order.tradeDate),
    PaymentType: 'aio',
    TotalAmount: String(order.amount),
    TradeDesc: order.tradeDesc,
    ItemName: order.itemName,
    ReturnURL: order.returnUrl,
    OrderResultURL: order.orderResultUrl,
    ChoosePayment: 'Credit',
    EncryptType: '1',
  }
  if (order.language) fields.Language = order.language
  if (order.customField1) fields.CustomField1 = order.customField1
  if (order.period) {
    // ECPay charges PeriodAmount on every execution including the first, and
    // integrations report it must equal TotalAmount.
    fields.PeriodAmount = String(order.amount)
    fields.PeriodType = order.period.type
    fields.Frequency = String(order.period.frequency)
    fields.ExecTimes = String(order.period.execTimes)
    fields.PeriodReturnURL = order.period.periodReturnUrl
  }
  return signFields(fields, keys)
}

const TRADE_NO_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/**
 * A fresh MerchantTradeNo: the prefix, the current time in base 36 (sortable,
 * 8 characters until 2059) and random characters up to ECPay's 20-character
 * limit. Upper case only, so uniqueness never depends on how ECPay treats case.
 */
export function newMerchantTradeNo(prefix: string): string {
  if (!/^[A-Za-z0-9]{0,8}$/.test(prefix)) throw new Error('MerchantTradeNo prefix must be at most 8 letters or digits')
  let tradeNo = prefix + Date.now().toString(36).toUpperCase()
  while (tradeNo.length < 20) {
    for (const byte of crypto.getRandomValues(new Uint8Array(20 - tradeNo.length))) {
      // Rejecting bytes ≥ 252 keeps every character equally likely.
      if (byte < 252) tradeNo += TRADE_NO_ALPHABET[byte % TRADE_NO_ALPHABET.length]
    }
  }
  return tradeNo.slice(0, 20)
}

export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/**
 * Id of the form in {@link renderAutoSubmitForm}. A page that injects the HTML
 * with innerHTML must submit this form itself: injected scripts do not run.
 */
export const AUTO_SUBMIT_FORM_ID = 'ecpay-auto-submit'

/** A standalone page that POSTs `fields` to `actionUrl` as soon as it loads. */
export function renderAutoSubmitForm(actionUrl: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n')
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Redirecting to payment</title>
</head>
<body>
<form id="${AUTO_SUBMIT_FORM_ID}" method="post" action="${escapeHtml(actionUrl)}" accept-charset="UTF-8">
${inputs}
<p>Taking you to the payment page. If nothing happens, press the button.</p>
<button type="submit">Continue</button>
</form>
<script>document.getElementById('${AUTO_SUBMIT_FORM_ID}').submit()</script>
</body>
</html>
`
}
