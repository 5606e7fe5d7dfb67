// A full round trip through the local ECPay stand-in: the merchant's signed
// order goes in, signed notifications come back to a small merchant server,
// and the merchant's own verification accepts them.

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signFields } from '../../../../api/payments/ecpay/checkMacValue'
import { NOTIFICATION_ACK, parseFormBody, verifyNotification } from '../../../../api/payments/ecpay/ecpayNotification'
import { buildCheckoutFields, type CheckoutOrder, newMerchantTradeNo } from '../../../../api/payments/ecpay/ecpayOrder'
import { buildCancelRequest, cancelPeriod } from '../../../../api/payments/ecpay/ecpayPeriodAction'
import { DEFAULT_PLANS, chargeAmountTwd, planPeriod } from '../../../../api/payments/plans'
import { type FakeEcpay, startFakeEcpay } from '../../../helpers/fakeEcpay'

const merchant = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' }

let fake: FakeEcpay
let merchantServer: ReturnType<typeof Bun.serve>
let merchantUrl: string
const received: { path: string; fields: Record<string, string> }[] = []

beforeAll(async () => {
  fake = await startFakeEcpay()
  merchantServer = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      received.push({ path: new URL(request.url).pathname, fields: parseFormBody(await request.text()) })
      return new Response(NOTIFICATION_ACK)
    },
  })
  merchantUrl = `http://127.0.0.1:${merchantServer.port}`
})

afterAll(async () => {
  await fake.stop()
  await merchantServer.stop(true)
})

function order(plan: 'subscriptionMonthly' | 'subscriptionYearly', periodic: boolean): CheckoutOrder {
  const definition = DEFAULT_PLANS[plan]
  return {
    merchantId: merchant.merchantId,
    tradeNo: newMerchantTradeNo('IS'),
    tradeDate: new Date(),
    amount: chargeAmountTwd(definition),
    itemName: definition.itemName,
    tradeDesc: 'Ideal Self Premium',
    returnUrl: `${merchantUrl}/ecpay/return`,
    orderResultUrl: `${merchantUrl}/app/payments/result`,
    language: 'ENG',
    period: periodic ? planPeriod(definition, `${merchantUrl}/ecpay/period`) : undefined,
  }
}

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

// What a browser would submit from an auto-submitting form page.
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (s: string) =>
    s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')
  const action = unescape(/<form [^>]*action="([^"]*)"/.exec(html)?.[1] ?? '')
  const fields: Record<string, string> = {}
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescape(name)] = unescape(value)
  }
  return { action, fields }
}

function lastReceived(path: string): Record<string, string> {
  const hit = received.findLast((r) => r.path === path)
  if (!hit) throw new Error(`nothing received at ${path}`)
  return hit.fields
}

describe('fake ECPay', () => {
  test('pays a periodic order, renews it, and cancels it', async () => {
    const fields = buildCheckoutFields(order('subscriptionMonthly', true), merchant)
    const paymentPage = await post(fake.checkoutUrl, fields)
    expect(paymentPage.status).toBe(200)
    const page = await paymentPage.text()
    expect(page).toContain('Pay')
    expect(fake.orders.get(fields.MerchantTradeNo)?.status).toBe('pending')

    // Press Pay: the merchant gets a signed ReturnURL POST, the browser a signed OrderResultURL form.
    const payAction = /<form method="post" action="([^"]*)"><input type="hidden" name="outcome" value="pay">/.exec(page)?.[1]
    const result = await post(new URL(payAction!, fake.url).href, { outcome: 'pay' })
    const returned = verifyNotification(lastReceived('/ecpay/return'), merchant)
    expect(returned).toMatchObject({ ok: true, kind: 'first', merchantTradeNo: fields.MerchantTradeNo, paid: true, simulated: false, amount: 890 })
    expect(fake.notifications.at(-2)).toMatchObject({ kind: 'return', status: 200, reply: '1|OK' })

    const browserForm = formOf(await result.text())
    expect(browserForm.action).toBe(`${merchantUrl}/app/payments/result`)
    expect(verifyNotification(browserForm.fields, merchant)).toMatchObject({ ok: true, paid: true, tradeNo: returned.ok ? returned.tradeNo : '' })

    // A later monthly charge arrives on PeriodReturnURL.
    const renewal = await fake.triggerPeriodicCharge(fields.MerchantTradeNo)
    expect(renewal.reply).toBe('1|OK')
    expect(verifyNotification(lastReceived('/ecpay/period'), merchant)).toMatchObject({
      ok: true,
      kind: 'period',
      paid: true,
      amount: 890,
      totalSuccessTimes: 2,
    })
    await fake.triggerPeriodicCharge(fields.MerchantTradeNo, { success: false })
    expect(verifyNotification(lastReceived('/ecpay/period'), merchant)).toMatchObject({ ok: true, paid: false, totalSuccessTimes: 2 })

    // Cancelling stops further charges.
    const cancel = buildCancelRequest(
      { merchantId: merchant.merchantId, merchantTradeNo: fields.MerchantTradeNo, timeStamp: Math.floor(Date.now() / 1000) },
      merchant,
    )
    expect(await cancelPeriod(fake.url, cancel)).toEqual({ ok: true, rtnCode: '1', rtnMsg: 'OK' })
    expect(fake.orders.get(fields.MerchantTradeNo)?.cancelled).toBe(true)
    await expect(fake.triggerPeriodicCharge(fields.MerchantTradeNo)).rejects.toThrow(/cancelled/)
  })

  test('rejects an order whose amount was changed after signing', async () => {
    const fields = buildCheckoutFields(order('subscriptionYearly', false), merchant)
    const response = await post(fake.checkoutUrl, { ...fields, TotalAmount: '1' })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('CheckMacValue Error')
    expect(fake.orders.has(fields.MerchantTradeNo)).toBe(false)
  })

  test('rejects a reused MerchantTradeNo and a missing field', async () => {
    fake.setMode('autoPay')
    const fields = buildCheckoutFields(order('subscriptionYearly', false), merchant)
    expect((await post(fake.checkoutUrl, fields)).status).toBe(200)
    const again = await post(fake.checkoutUrl, fields)
    expect(again.status).toBe(400)
    expect(await again.text()).toContain('MerchantTradeNo has been used')
    const { ItemName: _dropped, ...incomplete } = buildCheckoutFields(order('subscriptionYearly', false), merchant)
    expect(await (await post(fake.checkoutUrl, signFields(incomplete, merchant))).text()).toContain('ItemName is required')
  })

  test('autoPay answers the checkout with the result form, and resends carry RtnMsg=paid', async () => {
    fake.setMode('autoPay')
    const fields = buildCheckoutFields(order('subscriptionYearly', false), merchant)
    const browserForm = formOf(await (await post(fake.checkoutUrl, fields)).text())
    const first = verifyNotification(browserForm.fields, merchant)
    expect(first).toMatchObject({ ok: true, paid: true, amount: 9200 })

    const resent = await fake.resendReturnNotification(fields.MerchantTradeNo)
    expect(resent.fields.RtnMsg).toBe('paid')
    const again = verifyNotification(lastReceived('/ecpay/return'), merchant)
    expect(again).toMatchObject({ ok: true, paid: true })
    expect(again.ok && first.ok && again.chargeKey === first.chargeKey).toBe(true)
  })

  test('a declined card reaches only the browser', async () => {
    fake.setMode('autoDecline')
    const before = received.length
    const fields = buildCheckoutFields(order('subscriptionMonthly', true), merchant)
    const browserForm = formOf(await (await post(fake.checkoutUrl, fields)).text())
    expect(verifyNotification(browserForm.fields, merchant)).toMatchObject({ ok: true, paid: false })
    expect(received.length).toBe(before)
    await expect(fake.triggerPeriodicCharge(fields.MerchantTradeNo)).rejects.toThrow(/never paid/)
  })

  test('extra paid info adds lowercase fields that still verify', async () => {
    fake.setMode('autoPay')
    const fields = buildCheckoutFields(order('subscriptionMonthly', false), merchant)
    const { CheckMacValue: _old, ...unsigned } = fields
    await post(fake.checkoutUrl, signFields({ ...unsigned, NeedExtraPaidInfo: 'Y' }, merchant))
    const notice = lastReceived('/ecpay/return')
    expect(notice).toMatchObject({ card4no: '2222', amount: '890' })
    expect(verifyNotification(notice, merchant)).toMatchObject({ ok: true, amount: 890, kind: 'first' })
  })

  test('cancellation: a bad MAC, a stale timestamp and a scripted refusal are refused', async () => {
    fake.setMode('autoPay')
    const fields = buildCheckoutFields(order('subscriptionYearly', true), merchant)
    await post(fake.checkoutUrl, fields)
    const now = Math.floor(Date.now() / 1000)
    const request = (timeStamp: number) =>
      buildCancelRequest({ merchantId: merchant.merchantId, merchantTradeNo: fields.MerchantTradeNo, timeStamp }, merchant)

    expect(await cancelPeriod(fake.url, { ...request(now), CheckMacValue: '0'.repeat(64) })).toMatchObject({ ok: false, rtnCode: '10200073' })
    expect(await cancelPeriod(fake.url, request(now - 600))).toMatchObject({ ok: false, rtnMsg: 'TimeStamp has expired' })
    fake.refuseNextCancel('10100999', 'Try later')
    expect(await cancelPeriod(fake.url, request(now))).toEqual({ ok: false, rtnCode: '10100999', rtnMsg: 'Try later' })
    expect(fake.orders.get(fields.MerchantTradeNo)?.cancelled).toBe(false)
    expect(await cancelPeriod(fake.url, request(now))).toMatchObject({ ok: true })
    expect(await cancelPeriod(fake.url, request(now))).toMatchObject({ ok: false, rtnMsg: 'The schedule is already cancelled' })
  })
})
