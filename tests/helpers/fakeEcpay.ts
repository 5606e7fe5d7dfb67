// A local stand-in for ECPay's credit-card cashier, for end-to-end tests.
// It plays ECPay's side of the protocol: it checks the merchant's signed
// AioCheckOut form, shows a tiny payment page, sends signed ReturnURL /
// PeriodReturnURL notifications to the merchant, hands the browser a signed
// OrderResultURL form, and answers CreditCardPeriodAction cancellations.
// Point config.ecpay.endpoint at `url` to use it.
//
// Where ECPay's behaviour is not documented the stand-in picks something
// plausible: refusal codes other than ECPay's CheckMacValue error (10200073)
// are made up, and an invalid order gets HTTP 400 rather than ECPay's page.

import { signFields, verifyCheckMacValue } from '../../api/payments/ecpay/checkMacValue'
import { AIO_CHECKOUT_PATH, checkoutUrl, PERIOD_ACTION_PATH } from '../../api/payments/ecpay/ecpayEndpoints'
import { parseFormBody } from '../../api/payments/ecpay/ecpayNotification'
import { escapeHtml, formatEcpayDate, renderAutoSubmitForm } from '../../api/payments/ecpay/ecpayOrder'

/**
 * manual: the payment page waits for its Pay or Decline button.
 * autoPay / autoDecline: the checkout POST is answered at once, as if the
 * button had been pressed, so a browser goes straight back to the merchant.
 */
export type FakeEcpayMode = 'manual' | 'autoPay' | 'autoDecline'

export interface FakeEcpayOptions {
  merchantId?: string
  hashKey?: string
  hashIV?: string
  mode?: FakeEcpayMode
}

export interface FakePeriod {
  type: 'D' | 'M' | 'Y'
  frequency: number
  execTimes: number
  amount: number
  periodReturnUrl: string
}

export interface FakeOrder {
  merchantTradeNo: string
  /** The checkout form exactly as the merchant posted it. */
  fields: Record<string, string>
  amount: number
  receivedAt: Date
  status: 'pending' | 'paid' | 'declined'
  /** ECPay's TradeNo, assigned when the card is charged. */
  tradeNo: string | null
  period: FakePeriod | null
  totalSuccessTimes: number
  failedTimes: number
  cancelled: boolean
}

export interface FakeNotification {
  kind: 'return' | 'period' | 'orderResult'
  url: string
  fields: Record<string, string>
  /** The merchant's HTTP status; null for orderResult (the browser posts it) or when the request failed. */
  status: number | null
  /** The merchant's reply body, or the error when the request failed. */
  reply: string
}

export interface FakeCancelRequest {
  fields: Record<string, string>
  reply: string
}

export interface FakeEcpay {
  /** Base URL, e.g. http://127.0.0.1:54321, to use as the ECPay endpoint. */
  url: string
  checkoutUrl: string
  orders: Map<string, FakeOrder>
  notifications: FakeNotification[]
  cancelRequests: FakeCancelRequest[]
  setMode(mode: FakeEcpayMode): void
  /** Charges the next period of a paid, uncancelled periodic order and POSTs PeriodReturnURL. */
  triggerPeriodicCharge(merchantTradeNo: string, options?: { success?: boolean }): Promise<FakeNotification>
  /** Sends the ReturnURL notification again, the way ECPay retries when it gets no `1|OK`. */
  resendReturnNotification(merchantTradeNo: string): Promise<FakeNotification>
  /** The next valid CreditCardPeriodAction request gets this refusal and cancels nothing. */
  refuseNextCancel(rtnCode: string, rtnMsg: string): void
  stop(): Promise<void>
}

const STAGE = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' }
const CHECK_MAC_ERROR = '10200073'
const DECLINED = '10100248'
const TIMESTAMP_WINDOW_SECONDS = 180
const PERIOD_LIMITS: Record<string, { frequency: [number, number]; execTimes: [number, number] }> = {
  D: { frequency: [1, 365], execTimes: [1, 999] },
  M: { frequency: [1, 12], execTimes: [1, 99] },
  Y: { frequency: [1, 1], execTimes: [1, 9] },
}
// ECPay stops a schedule after this many failed charges.
const MAX_FAILED_CHARGES = 6

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

function page(title: string, content: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${content}</body></html>`
}

function inRange(value: string | undefined, [min, max]: [number, number]): boolean {
  return value !== undefined && /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max
}

export async function startFakeEcpay(options: FakeEcpayOptions = {}): Promise<FakeEcpay> {
  const merchantId = options.merchantId ?? STAGE.merchantId
  const keys = { hashKey: options.hashKey ?? STAGE.hashKey, hashIV: options.hashIV ?? STAGE.hashIV }
  let mode: FakeEcpayMode = options.mode ?? 'manual'
  let scriptedCancelRefusal: { rtnCode: string; rtnMsg: string } | null = null
  let sequence = 0
  const orders = new Map<string, FakeOrder>()
  const notifications: FakeNotification[] = []
  const cancelRequests: FakeCancelRequest[] = []

  function checkoutProblems(fields: Record<string, string>): string[] {
    const problems: string[] = []
    for (const name of [
      'MerchantID', 'MerchantTradeNo', 'MerchantTradeDate', 'PaymentType', 'TotalAmount',
      'TradeDesc', 'ItemName', 'ReturnURL', 'ChoosePayment', 'EncryptType', 'CheckMacValue',
    ]) {
      if (!fields[name]) problems.push(`${name} is required`)
    }
    if (problems.length) return problems
    if (fields.MerchantID !== merchantId) problems.push('MerchantID is unknown')
    if (!verifyCheckMacValue(fields, keys.hashKey, keys.hashIV)) problems.push('CheckMacValue Error')
    if (!/^[A-Za-z0-9]{1,20}$/.test(fields.MerchantTradeNo)) problems.push('MerchantTradeNo is invalid')
    if (orders.has(fields.MerchantTradeNo)) problems.push('MerchantTradeNo has been used')
    if (!/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/.test(fields.MerchantTradeDate)) problems.push('MerchantTradeDate format is invalid')
    if (fields.PaymentType !== 'aio') problems.push('PaymentType must be aio')
    if (!/^[1-9]\d*$/.test(fields.TotalAmount)) problems.push('TotalAmount must be a positive integer')
    if (fields.ChoosePayment !== 'Credit') problems.push('this stand-in only takes ChoosePayment=Credit')
    if (fields.EncryptType !== '1') problems.push('EncryptType must be 1')
    if (fields.PeriodType !== undefined) {
      const limits = PERIOD_LIMITS[fields.PeriodType]
      if (!limits) problems.push('PeriodType must be D, M or Y')
      else {
        if (!inRange(fields.Frequency, limits.frequency)) problems.push('Frequency is out of range')
        if (!inRange(fields.ExecTimes, limits.execTimes)) problems.push('ExecTimes is out of range')
      }
      if (fields.PeriodAmount !== fields.TotalAmount) problems.push('PeriodAmount must equal TotalAmount')
      if (!fields.PeriodReturnURL) problems.push('PeriodReturnURL is required')
    }
    return problems
  }

  function nextTradeNo(at: Date): string {
    sequence += 1
    // ECPay's TradeNo looks like yyMMddHHmmss plus four digits.
    return formatEcpayDate(at).replace(/\D/g, '').slice(2) + String(sequence % 10000).padStart(4, '0')
  }

  function customFields(order: FakeOrder): Record<string, string> {
    const out: Record<string, string> = {}
    for (const n of [1, 2, 3, 4]) out[`CustomField${n}`] = order.fields[`CustomField${n}`] ?? ''
    return out
  }

  function resultFields(order: FakeOrder, rtnCode: string, rtnMsg: string, at: Date): Record<string, string> {
    const paymentDate = formatEcpayDate(at)
    const fields: Record<string, string> = {
      MerchantID: merchantId,
      MerchantTradeNo: order.merchantTradeNo,
      StoreID: order.fields.StoreID ?? '',
      RtnCode: rtnCode,
      RtnMsg: rtnMsg,
      TradeNo: order.tradeNo ?? '',
      TradeAmt: String(order.amount),
      PaymentDate: paymentDate,
      PaymentType: 'Credit_CreditCard',
      PaymentTypeChargeFee: String(Math.max(1, Math.round(order.amount * 0.0275))),
      TradeDate: formatEcpayDate(order.receivedAt),
      SimulatePaid: '0',
      ...customFields(order),
    }
    // The lowercase extra fields ECPay adds on request; they exercise the case-insensitive sort.
    if (order.fields.NeedExtraPaidInfo === 'Y') {
      Object.assign(fields, {
        card4no: '2222',
        card6no: '431195',
        auth_code: '777777',
        gwsr: String(13_000_000 + sequence),
        process_date: paymentDate,
        amount: String(order.amount),
        eci: '0',
      })
    }
    return signFields(fields, keys)
  }

  async function notify(kind: 'return' | 'period', url: string, fields: Record<string, string>): Promise<FakeNotification> {
    const record: FakeNotification = { kind, url, fields, status: null, reply: '' }
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(10_000),
      })
      record.status = response.status
      record.reply = await response.text()
    } catch (error) {
      record.reply = String(error)
    }
    notifications.push(record)
    return record
  }

  /** Settles a pending order and returns the page the browser gets next. */
  async function settle(order: FakeOrder, pay: boolean): Promise<Response> {
    const at = new Date()
    order.tradeNo = nextTradeNo(at)
    let fields: Record<string, string>
    if (pay) {
      order.status = 'paid'
      if (order.period) order.totalSuccessTimes = 1
      fields = resultFields(order, '1', '交易成功', at)
      await notify('return', order.fields.ReturnURL, fields)
    } else {
      // A declined card produces no ReturnURL notification, only the browser result.
      order.status = 'declined'
      fields = resultFields(order, DECLINED, 'Card declined (stand-in)', at)
    }
    const resultUrl = order.fields.OrderResultURL
    if (!resultUrl) {
      const back = order.fields.ClientBackURL
      return html(page('Payment result', `<p>${pay ? 'Payment complete' : 'Payment failed'}</p>${back ? `<a href="${escapeHtml(back)}">Back to shop</a>` : ''}`))
    }
    notifications.push({ kind: 'orderResult', url: resultUrl, fields, status: null, reply: '' })
    return html(renderAutoSubmitForm(resultUrl, fields))
  }

  function paymentPage(order: FakeOrder): Response {
    const action = `/stand-in/pay/${encodeURIComponent(order.merchantTradeNo)}`
    const button = (outcome: string, label: string) =>
      `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit">${label}</button></form>`
    return html(
      page(
        'ECPay stand-in',
        `<h1>ECPay stand-in</h1><p>${escapeHtml(order.fields.ItemName)}</p><p>NT$${order.amount}${order.period ? ` every ${order.period.frequency}${order.period.type}` : ''}</p>${button('pay', 'Pay')}${button('decline', 'Decline')}`,
      ),
    )
  }

  async function checkout(request: Request): Promise<Response> {
    const fields = parseFormBody(await request.text())
    const problems = checkoutProblems(fields)
    if (problems.length) {
      return html(page('ECPay error', `<h1>Order rejected</h1><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`), 400)
    }
    const order: FakeOrder = {
      merchantTradeNo: fields.MerchantTradeNo,
      fields,
      amount: Number(fields.TotalAmount),
      receivedAt: new Date(),
      status: 'pending',
      tradeNo: null,
      period: fields.PeriodType
        ? {
            type: fields.PeriodType as FakePeriod['type'],
            frequency: Number(fields.Frequency),
            execTimes: Number(fields.ExecTimes),
            amount: Number(fields.PeriodAmount),
            periodReturnUrl: fields.PeriodReturnURL,
          }
        : null,
      totalSuccessTimes: 0,
      failedTimes: 0,
      cancelled: false,
    }
    orders.set(order.merchantTradeNo, order)
    if (mode === 'manual') return paymentPage(order)
    return settle(order, mode === 'autoPay')
  }

  async function payButton(request: Request, merchantTradeNo: string): Promise<Response> {
    const order = orders.get(merchantTradeNo)
    if (!order) return html(page('ECPay error', '<p>Unknown order</p>'), 404)
    if (order.status !== 'pending') return html(page('ECPay error', '<p>This order has already been processed</p>'), 409)
    const { outcome } = parseFormBody(await request.text())
    return settle(order, outcome === 'pay')
  }

  async function periodAction(request: Request): Promise<Response> {
    const fields = parseFormBody(await request.text())
    const answer = (rtnCode: string, rtnMsg: string) => {
      const reply = new URLSearchParams({
        MerchantID: fields.MerchantID ?? '',
        MerchantTradeNo: fields.MerchantTradeNo ?? '',
        RtnCode: rtnCode,
        RtnMsg: rtnMsg,
      }).toString()
      cancelRequests.push({ fields, reply })
      return new Response(reply, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
    }
    if (!verifyCheckMacValue(fields, keys.hashKey, keys.hashIV)) return answer(CHECK_MAC_ERROR, 'CheckMacValue Error')
    if (fields.MerchantID !== merchantId) return answer('0', 'MerchantID is unknown')
    const age = Math.abs(Date.now() / 1000 - Number(fields.TimeStamp))
    if (!(age <= TIMESTAMP_WINDOW_SECONDS)) return answer('0', 'TimeStamp has expired')
    if (fields.Action !== 'Cancel') return answer('0', `Action ${fields.Action} is not supported by the stand-in`)
    const order = orders.get(fields.MerchantTradeNo ?? '')
    if (!order?.period || order.status !== 'paid') return answer('0', 'No such periodic order')
    if (order.cancelled) return answer('0', 'The schedule is already cancelled')
    if (scriptedCancelRefusal) {
      const { rtnCode, rtnMsg } = scriptedCancelRefusal
      scriptedCancelRefusal = null
      return answer(rtnCode, rtnMsg)
    }
    order.cancelled = true
    return answer('1', 'OK')
  }

  function knownOrder(merchantTradeNo: string): FakeOrder {
    const order = orders.get(merchantTradeNo)
    if (!order) throw new Error(`fake ECPay: no order ${merchantTradeNo}`)
    return order
  }

  async function triggerPeriodicCharge(merchantTradeNo: string, { success = true } = {}): Promise<FakeNotification> {
    const order = knownOrder(merchantTradeNo)
    const period = order.period
    if (!period) throw new Error(`fake ECPay: ${merchantTradeNo} is not a periodic order`)
    if (order.status !== 'paid') throw new Error(`fake ECPay: ${merchantTradeNo} was never paid`)
    if (order.cancelled) throw new Error(`fake ECPay: the schedule of ${merchantTradeNo} is cancelled`)
    if (order.totalSuccessTimes >= period.execTimes) throw new Error(`fake ECPay: the schedule of ${merchantTradeNo} is complete`)
    sequence += 1
    if (success) {
      order.totalSuccessTimes += 1
      order.failedTimes = 0
    } else {
      order.failedTimes += 1
      if (order.failedTimes >= MAX_FAILED_CHARGES) order.cancelled = true
    }
    const fields = signFields(
      {
        MerchantID: merchantId,
        MerchantTradeNo: order.merchantTradeNo,
        StoreID: order.fields.StoreID ?? '',
        RtnCode: success ? '1' : DECLINED,
        RtnMsg: success ? '交易成功' : 'Card declined (stand-in)',
        PeriodType: period.type,
        Frequency: String(period.frequency),
        ExecTimes: String(period.execTimes),
        Amount: String(period.amount),
        Gwsr: String(13_000_000 + sequence),
        ProcessDate: formatEcpayDate(new Date()),
        AuthCode: success ? '777777' : '',
        FirstAuthAmount: String(order.amount),
        TotalSuccessTimes: String(order.totalSuccessTimes),
        SimulatePaid: '0',
        ...customFields(order),
      },
      keys,
    )
    return notify('period', period.periodReturnUrl, fields)
  }

  async function resendReturnNotification(merchantTradeNo: string): Promise<FakeNotification> {
    const order = knownOrder(merchantTradeNo)
    const first = notifications.find((n) => n.kind === 'return' && n.fields.MerchantTradeNo === merchantTradeNo)
    if (!first) throw new Error(`fake ECPay: ${merchantTradeNo} has no ReturnURL notification to resend`)
    // ECPay's resends are reported to carry RtnMsg=paid; everything else repeats.
    return notify('return', order.fields.ReturnURL, signFields({ ...first.fields, RtnMsg: 'paid' }, keys))
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const { pathname } = new URL(request.url)
      if (request.method !== 'POST') return html(page('ECPay stand-in', '<p>POST only</p>'), 405)
      if (pathname === AIO_CHECKOUT_PATH) return checkout(request)
      if (pathname === PERIOD_ACTION_PATH) return periodAction(request)
      const pay = /^\/stand-in\/pay\/([^/]+)$/.exec(pathname)
      if (pay) return payButton(request, decodeURIComponent(pay[1]))
      return html(page('ECPay stand-in', '<p>Not found</p>'), 404)
    },
  })
  const url = `http://127.0.0.1:${server.port}`

  return {
    url,
    checkoutUrl: checkoutUrl(url),
    orders,
    notifications,
    cancelRequests,
    setMode(next) {
      mode = next
    },
    triggerPeriodicCharge,
    resendReturnNotification,
    refuseNextCancel(rtnCode, rtnMsg) {
      scriptedCancelRefusal = { rtnCode, rtnMsg }
    },
    async stop() {
      await server.stop(true)
    },
  }
}
