import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { toUser, type UserRow } from '../users/users'
import { paymentSettings, subscriptionPageUrl } from '../payments/settings'
import { planCatalog } from '../payments/catalog'
import { startCheckout } from '../payments/checkout'
import type { OrderKind } from '../payments/orders'
import { readNotificationBody, receiveNotification, type NotificationReply } from '../payments/notifications'
import { orderResultLocation } from '../payments/orderResult'
import { cancelSubscription } from '../payments/cancel'
import { plansFromContent } from '../payments/planContent'

const checkoutQuery = t.Object({
  language: t.Optional(t.String({ maxLength: 16, error: 'language must be one of ENG, KOR, JPN, CHI' })),
  orderResultUrl: t.Optional(t.String({ maxLength: 200, error: 'orderResultUrl must be at most 200 characters' })),
})
type CheckoutQuery = typeof checkoutQuery.static
const planParams = t.Object({ id: t.String({ maxLength: 64 }) })
const providerParams = t.Object({
  id: t.Union([t.Literal('ECPAY'), t.Literal('APPLE'), t.Literal('STRIPE')], { error: 'id must be the provider: ECPAY, APPLE or STRIPE' }),
})

const paymentPage = (html: string) =>
  // A fresh order number per page: caching it would resubmit a used MerchantTradeNo.
  new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })

const plainText = (reply: NotificationReply) =>
  new Response(reply.text, { status: reply.status, headers: { 'content-type': 'text/plain; charset=utf-8' } })

const tooLarge: NotificationReply = { status: 413, text: '0|the body is too large' }

export const paymentRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx
  const settings = paymentSettings(cfg)
  // Prices are read when a checkout starts, so an admin's edit applies to the next order at once.
  const currentSettings = async () => ({ ...settings, plans: await plansFromContent(sql) })

  const checkout = async (user: UserRow, planId: string, kind: OrderKind, query: CheckoutQuery, requestUrl: string) =>
    paymentPage(await startCheckout(sql, await currentSettings(), user, { planId, kind, ...query, requestUrl }))
  const checkoutOptions = (summary: string) =>
    ({ auth: true, params: planParams, query: checkoutQuery, detail: { summary } }) as const

  // ECPay's server posts carry no session; the CheckMacValue over their fields is the authentication.
  const notification = (endpoint: 'return' | 'period') => async ({ body }: { body: unknown }) => {
    const fields = readNotificationBody(body)
    return plainText(fields ? await receiveNotification(sql, settings, endpoint, fields) : tooLarge)
  }
  const notificationOptions = (summary: string) => ({ parse: 'text', detail: { summary } }) as const

  return new Elysia({ prefix: '/payments', tags: ['Payments'] })
    .use(authGuard(ctx))
    .get('/plans', async () => planCatalog((await currentSettings()).plans, settings.free), {
      detail: { summary: 'Plans, prices, the yearly saving and the free allowance' },
    })
    .get(
      '/ecpay/one-time-payment/:id',
      ({ user, params, query, request }) => checkout(user, params.id, 'one-time', query, request.url),
      checkoutOptions('Payment-form HTML for one period of a plan, paid once (no renewal)'),
    )
    .get(
      '/ecpay/subscription/:id',
      ({ user, params, query, request }) => checkout(user, params.id, 'subscription', query, request.url),
      checkoutOptions('Payment-form HTML for an auto-renewing subscription to a plan'),
    )
    .post('/ecpay/return', notification('return'), notificationOptions("ECPay's ReturnURL: an order's first charge (form-encoded)"))
    .post(
      '/ecpay/period-return',
      notification('period'),
      notificationOptions("ECPay's PeriodReturnURL: each later charge of a subscription (form-encoded)"),
    )
    .post(
      '/ecpay/order-result',
      async ({ body, redirect }) => {
        const fields = readNotificationBody(body)
        const location = fields
          ? await orderResultLocation(sql, settings, fields)
          : subscriptionPageUrl(cfg.publicUrl, { success: false })
        return redirect(location, 303)
      },
      { parse: 'text', detail: { summary: "ECPay's OrderResultURL: the browser's return, redirected to /app/subscription" } },
    )
    .get('/ecpay/order-result', ({ redirect }) => redirect(subscriptionPageUrl(cfg.publicUrl, { success: false }), 303), {
      detail: { summary: 'Opened directly: back to /app/subscription' },
    })
    .post(
      '/cancel-subscription/:id',
      async ({ user, params }) => toUser(await cancelSubscription(sql, cfg.ecpay, user, params.id), cfg.freeLimitPeriod),
      {
        auth: true,
        params: providerParams,
        detail: { summary: 'Stop the auto-renewal (Premium stays until it expires); id is the provider' },
      },
    )
}
