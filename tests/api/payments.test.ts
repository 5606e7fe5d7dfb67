// Plans and payments through app.handle, with the local ECPay stand-in playing ECPay: it takes the
// checkout form, posts its signed ReturnURL / PeriodReturnURL notices to the app (through a small
// server in front of app.handle) and answers CreditCardPeriodAction cancellations.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signFields, verifyCheckMacValue } from '../../api/payments/ecpay/checkMacValue'
import { extendExpiry } from '../../api/payments/ecpay/ecpayNotification'
import { AUTO_SUBMIT_FORM_ID } from '../../api/payments/ecpay/ecpayOrder'
import { cancelSubscription } from '../../api/payments/cancel'
import { expireSubscriptions } from '../../api/payments/expiry'
import { insertOrder, type OrderRow } from '../../api/payments/orders'
import { DEFAULT_PLANS } from '../../api/payments/plans'
import { findUserById } from '../../api/users/users'
import { startFakeEcpay, type FakeEcpay } from '../helpers/fakeEcpay'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
let fake: FakeEcpay
let front: ReturnType<typeof Bun.serve>
let publicUrl: string

beforeAll(async () => {
  fake = await startFakeEcpay({ mode: 'autoPay' })
  // The stand-in reaches ReturnURL over HTTP, as ECPay would; this server hands those requests to the app.
  front = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => app.app.handle(request) })
  publicUrl = `http://127.0.0.1:${front.port}`
  app = await startTestApp({ PUBLIC_URL: publicUrl, ECPAY_ENDPOINT: fake.url })
})

afterAll(async () => {
  await app?.close()
  await front?.stop(true)
  await fake?.stop()
})

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const decodeEntities = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e])

/** The form of an auto-submitting page, as a browser would read it. */
function readForm(html: string) {
  const attr = (tag: string, name: string) => decodeEntities(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '')
  const formTag = /<form [^>]*>/.exec(html)?.[0] ?? ''
  const fields = Object.fromEntries([...html.matchAll(/<input [^>]*>/g)].map(([tag]) => [attr(tag, 'name'), attr(tag, 'value')]))
  return { id: attr(formTag, 'id'), action: attr(formTag, 'action'), fields }
}

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' }
const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...formHeaders, ...headers }, body: new URLSearchParams(fields).toString(), redirect: 'manual' })

const notify = async (endpoint: 'return' | 'period-return', fields: Record<string, string>) => {
  const res = await app.call('POST', `/payments/ecpay/${endpoint}`, { body: new URLSearchParams(fields).toString(), headers: formHeaders })
  return { status: res.status, text: await res.text() }
}

async function checkout(cookie: string, path = '/payments/ecpay/subscription/subscriptionMonthly') {
  const res = await app.call('GET', path, { cookie })
  const html = await res.text()
  return { res, html, form: readForm(html) }
}

/** Checks out and pays at the stand-in; returns the order number and the page the browser gets back. */
async function subscribeAndPay(cookie: string, path?: string) {
  const { form } = await checkout(cookie, path)
  const before = Date.now()
  const paid = await postForm(form.action, form.fields)
  const after = Date.now()
  return { tradeNo: form.fields.MerchantTradeNo, resultForm: readForm(await paid.text()), before, after }
}

async function self(cookie: string) {
  return (await app.json('GET', '/self', { cookie })).body
}

async function order(tradeNo: string): Promise<OrderRow> {
  const [row] = await app.ctx.sql<OrderRow[]>`select * from payment_orders where merchant_trade_no = ${tradeNo}`
  return row
}

let tradeNoCounter = 0
/** A ReturnURL notice as ECPay signs it, for the cases the stand-in never produces. */
function firstNotice(merchantTradeNo: string, overrides: Record<string, string> = {}) {
  const { hashKey, hashIV, merchantId } = app.cfg.ecpay
  const fields: Record<string, string> = {
    MerchantID: merchantId,
    MerchantTradeNo: merchantTradeNo,
    StoreID: '',
    RtnCode: '1',
    RtnMsg: '交易成功',
    TradeNo: `25010112${String(++tradeNoCounter).padStart(8, '0')}`,
    TradeAmt: '890',
    PaymentDate: '2025/01/01 12:00:00',
    PaymentType: 'Credit_CreditCard',
    PaymentTypeChargeFee: '24',
    TradeDate: '2025/01/01 11:59:00',
    SimulatePaid: '0',
    CustomField1: 'subscriptionMonthly',
    ...overrides,
  }
  return signFields(fields, { hashKey, hashIV })
}

describe('GET /payments/plans', () => {
  test('is public and derives the yearly saving and the free allowance from the same settings', async () => {
    const { status, body } = await app.json('GET', '/payments/plans')
    expect(status).toBe(200)
    expect(body).toEqual({
      provider: 'ECPAY',
      free: { messageLimit: app.cfg.freeMessageLimit, period: app.cfg.freeLimitPeriod },
      plans: [
        { id: 'subscriptionMonthly', period: 'month', priceCents: 2900, price: '$29', chargeTwd: 890 },
        { id: 'subscriptionYearly', period: 'year', priceCents: 30000, price: '$300', chargeTwd: 9200 },
      ],
      yearlySavings: { strikeThroughCents: 34800, strikeThrough: '$348', saveCents: 4800, save: '$48', savePercent: 13.8 },
    })
  })
})

describe('checkout forms', () => {
  test('a subscription form is signed, posts to ECPay and names our callback URLs; the order is recorded first', async () => {
    const { cookie, user } = await app.signUp()
    const { res, html, form } = await checkout(cookie, '/payments/ecpay/subscription/subscriptionMonthly?language=JPN')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(html).toContain(`document.getElementById('${AUTO_SUBMIT_FORM_ID}')`)
    expect(form.id).toBe(AUTO_SUBMIT_FORM_ID)
    expect(form.action).toBe(`${fake.url}/Cashier/AioCheckOut/V5`)
    expect(form.fields).toMatchObject({
      MerchantID: '3002607',
      PaymentType: 'aio',
      ChoosePayment: 'Credit',
      EncryptType: '1',
      TotalAmount: '890',
      PeriodAmount: '890',
      PeriodType: 'M',
      Frequency: '1',
      ExecTimes: '99',
      ReturnURL: `${publicUrl}/api/v1/payments/ecpay/return`,
      PeriodReturnURL: `${publicUrl}/api/v1/payments/ecpay/period-return`,
      OrderResultURL: `${publicUrl}/api/v1/payments/ecpay/order-result`,
      Language: 'JPN',
      CustomField1: 'subscriptionMonthly',
    })
    expect(form.fields.MerchantTradeNo).toMatch(/^IS[A-Z0-9]{18}$/)
    expect(verifyCheckMacValue(form.fields, app.cfg.ecpay.hashKey, app.cfg.ecpay.hashIV)).toBe(true)
    expect(await order(form.fields.MerchantTradeNo)).toMatchObject({
      user_id: user.id,
      plan_id: 'subscriptionMonthly',
      kind: 'subscription',
      amount_twd: 890,
      period_type: 'M',
      status: 'pending',
    })
  })

  test('a one-time form has no schedule; ENG is the default language and CHI leaves ECPay on Traditional Chinese', async () => {
    const { cookie } = await app.signUp()
    const yearly = await checkout(cookie, '/payments/ecpay/one-time-payment/subscriptionYearly')
    expect(yearly.form.fields).toMatchObject({ TotalAmount: '9200', Language: 'ENG', CustomField1: 'subscriptionYearly' })
    for (const periodic of ['PeriodType', 'PeriodAmount', 'Frequency', 'ExecTimes', 'PeriodReturnURL'])
      expect(yearly.form.fields).not.toHaveProperty(periodic)
    expect(await order(yearly.form.fields.MerchantTradeNo)).toMatchObject({ kind: 'one-time', period_type: 'Y', amount_twd: 9200 })
    const chinese = await checkout(cookie, '/payments/ecpay/one-time-payment/subscriptionMonthly?language=CHI')
    expect(chinese.form.fields).not.toHaveProperty('Language')
  })

  test('refuses the signed-out, unknown plans and languages, and result URLs off our origin', async () => {
    expect((await app.json('GET', '/payments/ecpay/subscription/subscriptionMonthly')).status).toBe(401)
    const { cookie } = await app.signUp()
    const unknown = await app.json('GET', '/payments/ecpay/subscription/lifetime', { cookie })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toMatch(/no plan lifetime/)
    const language = await app.json('GET', '/payments/ecpay/subscription/subscriptionMonthly?language=FRA', { cookie })
    expect(language.status).toBe(400)
    expect(language.body.message).toBe('language must be one of ENG, KOR, JPN, CHI')
    const elsewhere = encodeURIComponent('https://evil.example/collect')
    const offOrigin = await app.json('GET', `/payments/ecpay/subscription/subscriptionMonthly?orderResultUrl=${elsewhere}`, { cookie })
    expect(offOrigin.status).toBe(400)
    expect(offOrigin.body.message).toBe(`orderResultUrl must be a page of this app at its PUBLIC_URL, ${new URL(publicUrl).origin}`)
    const own = await checkout(cookie, `/payments/ecpay/subscription/subscriptionMonthly?orderResultUrl=${encodeURIComponent(`${publicUrl}/app/subscription`)}`)
    expect(own.form.fields.OrderResultURL).toBe(`${publicUrl}/app/subscription`)
  })
})

describe('paying', () => {
  test('a paid subscription makes the user PREMIUM through ECPAY with auto-renewal, one month ahead', async () => {
    const { cookie } = await app.signUp()
    const { tradeNo, before, after } = await subscribeAndPay(cookie)
    const notice = fake.notifications.findLast((n) => n.kind === 'return' && n.fields.MerchantTradeNo === tradeNo)
    expect(notice).toMatchObject({ status: 200, reply: '1|OK' })
    const { subscription } = await self(cookie)
    expect(subscription).toMatchObject({ type: 'PREMIUM', provider: 'ECPAY', autoRenew: true })
    const expiresAt = new Date(subscription.expiresAt).getTime()
    expect(expiresAt).toBeGreaterThanOrEqual(extendExpiry(null, new Date(before), 'M').getTime())
    expect(expiresAt).toBeLessThanOrEqual(extendExpiry(null, new Date(after), 'M').getTime())
    expect(await order(tradeNo)).toMatchObject({ status: 'paid', ecpay_trade_no: fake.orders.get(tradeNo)!.tradeNo, periods_paid: 1 })
  })

  test('a one-time payment gives one period without auto-renewal', async () => {
    const { cookie } = await app.signUp()
    const { before, after } = await subscribeAndPay(cookie, '/payments/ecpay/one-time-payment/subscriptionYearly')
    const { subscription } = await self(cookie)
    expect(subscription).toMatchObject({ type: 'PREMIUM', provider: 'ECPAY', autoRenew: false })
    const expiresAt = new Date(subscription.expiresAt).getTime()
    expect(expiresAt).toBeGreaterThanOrEqual(extendExpiry(null, new Date(before), 'Y').getTime())
    expect(expiresAt).toBeLessThanOrEqual(extendExpiry(null, new Date(after), 'Y').getTime())
  })

  test("ECPay's resend of a paid notice is acknowledged and changes nothing", async () => {
    const { cookie, user } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    const first = await self(cookie)
    const resent = await fake.resendReturnNotification(tradeNo)
    expect(resent).toMatchObject({ status: 200, reply: '1|OK' })
    expect((await self(cookie)).subscription).toEqual(first.subscription)
    expect(await order(tradeNo)).toMatchObject({ periods_paid: 1 })
    const recorded = await app.ctx.sql<{ outcome: string; charge_key: string | null }[]>`
      select outcome, charge_key from payment_notifications where user_id = ${user.id} and kind = 'return' order by id`
    expect(recorded).toHaveLength(2)
    expect(recorded[0].charge_key).not.toBeNull()
    expect(recorded[1]).toMatchObject({ charge_key: null, outcome: expect.stringMatching(/^duplicate/) })
  })

  test('forged, wrong-amount, unknown-order and other-merchant notices are refused, recorded and change nothing', async () => {
    const { cookie } = await app.signUp()
    const { form } = await checkout(cookie)
    const tradeNo = form.fields.MerchantTradeNo
    const cases: [Record<string, string>, string][] = [
      [{ ...firstNotice(tradeNo), TradeAmt: '1' }, '0|CheckMacValue does not match'],
      [firstNotice(tradeNo, { TradeAmt: '1' }), "0|amount 1 is not the order's 890 TWD"],
      [firstNotice('IS0000000000NOORDER'), '0|no order has this MerchantTradeNo'],
      [firstNotice(tradeNo, { MerchantID: '2000132' }), '0|MerchantID 2000132 is not ours'],
    ]
    for (const [fields, reply] of cases) {
      const res = await notify('return', fields)
      expect(res).toEqual({ status: 400, text: reply })
    }
    expect((await self(cookie)).subscription).toMatchObject({ type: 'FREEMIUM', provider: null, autoRenew: false })
    expect(await order(tradeNo)).toMatchObject({ status: 'pending', periods_paid: 0 })
    const [{ n }] = await app.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from payment_notifications where merchant_trade_no = ${tradeNo} and outcome like 'refused:%'`
    expect(n).toBe(3)
    // The same order pays normally once a genuine notice arrives: the refusals above were what held it back.
    expect(await notify('return', firstNotice(tradeNo))).toEqual({ status: 200, text: '1|OK' })
    expect((await self(cookie)).subscription).toMatchObject({ type: 'PREMIUM', autoRenew: true })
  })

  test('outside production a simulated payment is honoured, and says so', async () => {
    const { cookie, user } = await app.signUp()
    const { form } = await checkout(cookie)
    expect(await notify('return', firstNotice(form.fields.MerchantTradeNo, { SimulatePaid: '1' }))).toEqual({ status: 200, text: '1|OK' })
    expect((await self(cookie)).subscription.type).toBe('PREMIUM')
    const [row] = await app.ctx.sql<{ outcome: string }[]>`select outcome from payment_notifications where user_id = ${user.id}`
    expect(row.outcome).toMatch(/simulated payment, honoured outside production/)
  })

  test('an already auto-renewing subscriber cannot start a second plan (409)', async () => {
    const { cookie } = await app.signUp()
    await subscribeAndPay(cookie)
    for (const path of ['/payments/ecpay/subscription/subscriptionYearly', '/payments/ecpay/one-time-payment/subscriptionMonthly']) {
      const again = await app.json('GET', path, { cookie })
      expect(again.status).toBe(409)
      expect(again.body.message).toMatch(/already renews automatically/)
    }
  })
})

describe('SimulatePaid in production', () => {
  test('acknowledges the notice but grants nothing', async () => {
    const prod = await startTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-production-secret-of-at-least-32-characters',
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: 'https://idealself.example',
    })
    try {
      const made = await prod.makeUser({})
      const user = (await findUserById(prod.ctx.sql, made.id))!
      const tradeNo = 'ISPRODSIMULATED00001'
      await insertOrder(prod.ctx.sql, { merchantTradeNo: tradeNo, userId: user.id, plan: DEFAULT_PLANS.subscriptionMonthly, kind: 'subscription', amountTwd: 890 })
      const res = await prod.call('POST', '/payments/ecpay/return', {
        body: new URLSearchParams(firstNotice(tradeNo, { SimulatePaid: '1' })).toString(),
        headers: formHeaders,
      })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('1|OK')
      expect((await findUserById(prod.ctx.sql, user.id))!.subscription_type).toBe('FREEMIUM')
      const [row] = await prod.ctx.sql<{ status: string }[]>`select status from payment_orders where merchant_trade_no = ${tradeNo}`
      expect(row.status).toBe('pending')
      const [notice] = await prod.ctx.sql<{ outcome: string }[]>`select outcome from payment_notifications where merchant_trade_no = ${tradeNo}`
      expect(notice.outcome).toBe('ignored: simulated payment (SimulatePaid=1) in production')
    } finally {
      await prod.close()
    }
  })
})

describe('periodic charges', () => {
  test('each successful charge extends by one period; a failed one is recorded and extends nothing', async () => {
    const { cookie, user } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    const firstExpiry = new Date((await self(cookie)).subscription.expiresAt)

    const charged = await fake.triggerPeriodicCharge(tradeNo)
    expect(charged).toMatchObject({ status: 200, reply: '1|OK' })
    const secondExpiry = extendExpiry(firstExpiry, new Date(), 'M')
    expect((await self(cookie)).subscription).toMatchObject({ type: 'PREMIUM', autoRenew: true, expiresAt: secondExpiry.toISOString() })
    expect(await order(tradeNo)).toMatchObject({ periods_paid: 2 })

    const declined = await fake.triggerPeriodicCharge(tradeNo, { success: false })
    expect(declined).toMatchObject({ status: 200, reply: '1|OK' })
    expect((await self(cookie)).subscription.expiresAt).toBe(secondExpiry.toISOString())
    const [failure] = await app.ctx.sql<{ outcome: string }[]>`
      select outcome from payment_notifications where user_id = ${user.id} and kind = 'period' order by id desc limit 1`
    expect(failure.outcome).toMatch(/^periodic charge failed .*Premium not extended$/)

    // A resend of the successful charge is recognised.
    expect(await notify('period-return', charged.fields)).toEqual({ status: 200, text: '1|OK' })
    expect((await self(cookie)).subscription.expiresAt).toBe(secondExpiry.toISOString())
  })

  test('a charge whose notices were lost is made good by the next one (TotalSuccessTimes)', async () => {
    const { cookie } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    const firstExpiry = new Date((await self(cookie)).subscription.expiresAt)
    const second = await fake.triggerPeriodicCharge(tradeNo)
    const { CheckMacValue: _, ...unsigned } = second.fields
    // As if charges 2 and 3 had been announced to a server that never answered.
    const jumped = signFields({ ...unsigned, TotalSuccessTimes: '4', Gwsr: '99999999' }, app.cfg.ecpay)
    expect(await notify('period-return', jumped)).toEqual({ status: 200, text: '1|OK' })
    const expected = [1, 2, 3].reduce((at) => extendExpiry(at, new Date(), 'M'), firstExpiry)
    expect((await self(cookie)).subscription.expiresAt).toBe(expected.toISOString())
    expect(await order(tradeNo)).toMatchObject({ periods_paid: 4 })
  })

  test('a first-charge notice sent to the periodic URL is refused', async () => {
    const { cookie } = await app.signUp()
    const { form } = await checkout(cookie)
    expect(await notify('period-return', firstNotice(form.fields.MerchantTradeNo))).toEqual({
      status: 400,
      text: '0|a first-charge notice does not belong at this URL',
    })
    expect((await self(cookie)).subscription.type).toBe('FREEMIUM')
  })
})

describe('returning from the cashier (OrderResultURL)', () => {
  test('the browser post, without any cookie, is sent on to the subscription page with a 303', async () => {
    const { cookie } = await app.signUp()
    const { tradeNo, resultForm } = await subscribeAndPay(cookie)
    expect(resultForm.action).toBe(`${publicUrl}/api/v1/payments/ecpay/order-result`)
    expect(resultForm.fields.MerchantTradeNo).toBe(tradeNo)
    const res = await postForm(resultForm.action, resultForm.fields, { origin: 'https://payment-stage.ecpay.com.tw' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(
      `${publicUrl}/app/subscription?success=true&planId=subscriptionMonthly&planType=subscription&provider=ECPAY`,
    )
  })

  test('a declined card shows failure and grants nothing; a forged post shows failure', async () => {
    const { cookie } = await app.signUp()
    fake.setMode('autoDecline')
    let declined
    try {
      declined = await subscribeAndPay(cookie, '/payments/ecpay/one-time-payment/subscriptionMonthly')
    } finally {
      fake.setMode('autoPay')
    }
    const res = await postForm(declined.resultForm.action, declined.resultForm.fields)
    expect(res.headers.get('location')).toBe(
      `${publicUrl}/app/subscription?success=false&planId=subscriptionMonthly&planType=one-time&provider=ECPAY`,
    )
    expect((await self(cookie)).subscription.type).toBe('FREEMIUM')
    expect(await order(declined.tradeNo)).toMatchObject({ status: 'pending' })

    const forged = await postForm(declined.resultForm.action, { ...declined.resultForm.fields, RtnCode: '1' })
    expect(forged.status).toBe(303)
    expect(forged.headers.get('location')).toBe(`${publicUrl}/app/subscription?success=false&provider=ECPAY`)
  })

  test('a paid result does not grant Premium by itself: ReturnURL is the source of truth', async () => {
    const { cookie } = await app.signUp()
    const { form } = await checkout(cookie)
    const res = await postForm(`${publicUrl}/api/v1/payments/ecpay/order-result`, firstNotice(form.fields.MerchantTradeNo))
    expect(res.headers.get('location')).toMatch(/success=true/)
    expect((await self(cookie)).subscription.type).toBe('FREEMIUM')
  })

  test('opening it directly goes back to the subscription page', async () => {
    const res = await app.call('GET', '/payments/ecpay/order-result')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${publicUrl}/app/subscription?success=false`)
  })
})

describe('POST /payments/cancel-subscription/{provider}', () => {
  test("stops ECPay's schedule, turns auto-renewal off and keeps Premium until it expires", async () => {
    const { cookie } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    const before = (await self(cookie)).subscription
    const res = await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie })
    expect(res.status).toBe(200)
    expect(res.body.subscription).toEqual({ ...before, autoRenew: false })
    const request = fake.cancelRequests.at(-1)!
    expect(request.fields).toMatchObject({ MerchantTradeNo: tradeNo, Action: 'Cancel', MerchantID: '3002607' })
    expect(request.reply).toContain('RtnCode=1')
    expect(fake.orders.get(tradeNo)!.cancelled).toBe(true)
    expect(await order(tradeNo)).toMatchObject({ status: 'cancelled' })
    expect((await self(cookie)).subscription).toEqual({ ...before, autoRenew: false })
    const again = await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie })
    expect(again.status).toBe(400)
    expect(again.body.message).toBe('You have no auto-renewing subscription to cancel.')
  })

  test('when ECPay refuses or does not answer: 502 and nothing changes', async () => {
    const { cookie, user } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    const before = (await self(cookie)).subscription
    fake.refuseNextCancel('10100050', 'Try again later')
    const refused = await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie })
    expect(refused.status).toBe(502)
    expect(refused.body.message).toBe('ECPay refused (10100050: Try again later). Your subscription was not cancelled; please try again later.')
    expect((await self(cookie)).subscription).toEqual(before)
    expect(await order(tradeNo)).toMatchObject({ status: 'paid' })
    expect(fake.orders.get(tradeNo)!.cancelled).toBe(false)

    const row = (await findUserById(app.ctx.sql, user.id))!
    const silent = { ...app.cfg.ecpay, endpoint: 'http://127.0.0.1:9' }
    await expect(cancelSubscription(app.ctx.sql, silent, row, 'ECPAY')).rejects.toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(/^ECPay did not answer/),
    })
    expect((await self(cookie)).subscription).toEqual(before)
  })

  test('a user only ever cancels their own subscription', async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const paidA = await subscribeAndPay(a.cookie)
    const paidB = await subscribeAndPay(b.cookie)
    expect((await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie: a.cookie })).status).toBe(200)
    expect(fake.cancelRequests.at(-1)!.fields.MerchantTradeNo).toBe(paidA.tradeNo)
    expect(fake.orders.get(paidB.tradeNo)!.cancelled).toBe(false)
    expect(await order(paidB.tradeNo)).toMatchObject({ status: 'paid' })
    expect((await self(b.cookie)).subscription.autoRenew).toBe(true)
  })

  test('no subscription, another provider, an unknown provider and the signed-out are refused', async () => {
    expect((await app.json('POST', '/payments/cancel-subscription/ECPAY')).status).toBe(401)
    const { cookie, user } = await app.signUp()
    const none = await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie })
    expect(none.status).toBe(400)
    await app.ctx.sql`
      update users set subscription_type = 'PREMIUM', subscription_auto_renew = true, subscription_provider = 'APPLE',
        subscription_expires_at = now() + interval '20 days'
      where id = ${user.id}`
    const apple = await app.json('POST', '/payments/cancel-subscription/APPLE', { cookie })
    expect(apple.status).toBe(400)
    expect(apple.body.message).toMatch(/App Store/)
    const unknown = await app.json('POST', '/payments/cancel-subscription/PAYPAL', { cookie })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('id must be the provider: ECPAY, APPLE or STRIPE')
    expect((await self(cookie)).subscription.autoRenew).toBe(true)
  })
})

describe('expiry', () => {
  test('a cancelled subscription that runs out returns the user to FREEMIUM with a fresh allowance', async () => {
    const { cookie, user } = await app.signUp()
    await subscribeAndPay(cookie)
    expect((await app.json('POST', '/payments/cancel-subscription/ECPAY', { cookie })).status).toBe(200)
    await app.ctx.sql`update users set message_count = 37 where id = ${user.id}`
    const expiresAt = new Date((await self(cookie)).subscription.expiresAt)

    expect(await expireSubscriptions(app.ctx.sql, new Date(expiresAt.getTime() - 1000), 'week')).not.toContain(user.id)
    expect((await self(cookie)).subscription.type).toBe('PREMIUM')

    const now = new Date(expiresAt.getTime() + 1000)
    expect(await expireSubscriptions(app.ctx.sql, now, 'week')).toContain(user.id)
    const after = await self(cookie)
    expect(after.subscription).toMatchObject({ type: 'FREEMIUM', autoRenew: false })
    expect(after.messageLimit).toEqual({ limit: 100, count: 0, resetAt: new Date(now.getTime() + 7 * 24 * 3600 * 1000).toISOString() })
  })
})

describe('deleting an account with a running subscription', () => {
  test('the ECPay schedule is cancelled before the account is deleted', async () => {
    const { cookie, user } = await app.signUp()
    const { tradeNo } = await subscribeAndPay(cookie)
    expect((await self(cookie)).subscription.autoRenew).toBe(true)
    const res = await app.json('DELETE', '/self', { cookie })
    expect(res.status).toBe(200)
    expect(fake.cancelRequests.some((r) => r.fields.MerchantTradeNo === tradeNo)).toBe(true)
    const [row] = await app.ctx.sql`select 1 from users where id = ${user.id}`
    expect(row).toBeUndefined()
  })

  test('when ECPay refuses the cancellation, nothing is deleted', async () => {
    const { cookie } = await app.signUp()
    await subscribeAndPay(cookie)
    fake.refuseNextCancel('10100050', 'Refused')
    const res = await app.json('DELETE', '/self', { cookie })
    expect(res.status).toBe(502)
    expect((await self(cookie)).subscription).toMatchObject({ type: 'PREMIUM', autoRenew: true })
  })
})

test('the plan catalog and the charged amount follow the subscription-plans content', async () => {
  const [row] = await app.ctx.sql<{ id: string; field_values: Record<string, unknown> }[]>`
    select id, field_values from content_rows where slug = 'subscription-plans' and field_values->>'planId' = 'subscriptionMonthly'`
  const before = row.field_values
  await app.ctx.sql`update content_rows set field_values = field_values || ${app.ctx.sql.json({ priceUsd: 31, twdAmount: 950 })} where id = ${row.id}`
  try {
    const { body } = await app.json('GET', '/payments/plans')
    expect(body.plans.find((p: { id: string }) => p.id === 'subscriptionMonthly')).toMatchObject({ price: '$31', chargeTwd: 950 })
    expect(body.yearlySavings.strikeThrough).toBe('$372')
    const { cookie } = await app.signUp()
    const { form } = await checkout(cookie)
    expect(form.fields.TotalAmount).toBe('950')
  } finally {
    await app.ctx.sql`update content_rows set field_values = ${app.ctx.sql.json(before as never)} where id = ${row.id}`
  }
})
