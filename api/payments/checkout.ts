// Starting a payment: the order row, then the signed AioCheckOut form that carries the browser to ECPay.
import type { Sql } from '../db/database'
import { checkoutUrl } from './ecpay/ecpayEndpoints'
import { buildCheckoutFields, newMerchantTradeNo, renderAutoSubmitForm, type EcpayLanguage } from './ecpay/ecpayOrder'
import { PLAN_IDS, chargeAmountTwd, isPlanId, planPeriod } from './plans'
import { badRequest, conflict, notFound } from '../http/errors'
import { notOwnLink, ownLink } from '../http/publicOrigin'
import type { UserRow } from '../users/users'
import { insertOrder, type OrderKind } from './orders'
import { callbackUrls, type PaymentSettings } from './settings'

const TRADE_NO_PREFIX = 'IS'
const TRADE_DESC = 'Ideal Self Premium'
const URL_MAX = 200

/**
 * The `language` query (spec §9: ENG by default) as ECPay's Language field. ECPay's CHI is Simplified
 * Chinese, but the cashier's default (no Language field) is Traditional Chinese, the language of the
 * Taiwanese card holders ECPay serves, so CHI and zh-* are sent as "no field".
 */
export function ecpayLanguage(query: string | undefined): EcpayLanguage | undefined {
  const value = (query?.trim() || 'ENG').toUpperCase()
  if (value === 'CHI' || /^ZH([-_]|$)/.test(value)) return undefined
  if (value === 'ENG' || value === 'KOR' || value === 'JPN') return value
  throw badRequest('language must be one of ENG, KOR, JPN, CHI')
}

/**
 * ECPay makes the browser POST the signed result to OrderResultURL, so only our own origin may be
 * named there: anything else would turn the checkout into a way to hand the result to another site.
 */
export function resolveOrderResultUrl(
  publicUrl: string,
  requested: string | undefined,
  opts: { production: boolean; requestUrl?: string } = { production: true },
): string {
  if (!requested?.trim()) return callbackUrls(publicUrl).orderResult
  const url = ownLink(requested, publicUrl, opts)
  if (!url) throw badRequest(notOwnLink('orderResultUrl', publicUrl))
  if (url.href.length > URL_MAX) throw badRequest(`orderResultUrl must be at most ${URL_MAX} characters`)
  return url.href
}

export interface CheckoutRequest {
  planId: string
  kind: OrderKind
  language?: string
  orderResultUrl?: string
  /** The address the request came in on: in development another name of this machine is accepted. */
  requestUrl?: string
}

/** Records a pending order and returns the auto-submitting HTML page for it. */
export async function startCheckout(
  sql: Sql,
  settings: PaymentSettings,
  user: UserRow,
  request: CheckoutRequest,
  now = new Date(),
): Promise<string> {
  if (!isPlanId(request.planId)) throw notFound(`There is no plan ${request.planId}; plans: ${PLAN_IDS.join(', ')}`)
  // A second running schedule would bill the user twice for the same Premium.
  if (user.subscription_type === 'PREMIUM' && user.subscription_auto_renew)
    throw conflict('Your Premium subscription already renews automatically. Cancel it first if you want to change plans.')
  const language = ecpayLanguage(request.language)
  const orderResultUrl = resolveOrderResultUrl(settings.publicUrl, request.orderResultUrl, { production: settings.production, requestUrl: request.requestUrl })
  const plan = settings.plans[request.planId]
  const urls = callbackUrls(settings.publicUrl)
  const merchantTradeNo = newMerchantTradeNo(TRADE_NO_PREFIX)
  const amountTwd = chargeAmountTwd(plan)
  const fields = buildCheckoutFields(
    {
      merchantId: settings.ecpay.merchantId,
      tradeNo: merchantTradeNo,
      tradeDate: now,
      amount: amountTwd,
      itemName: request.kind === 'subscription' ? plan.itemName : `${plan.itemName}, one payment, no renewal`,
      tradeDesc: TRADE_DESC,
      returnUrl: urls.return,
      orderResultUrl,
      language,
      period: request.kind === 'subscription' ? planPeriod(plan, urls.periodReturn) : undefined,
      customField1: plan.id,
    },
    settings.ecpay,
  )
  await insertOrder(sql, { merchantTradeNo, userId: user.id, plan, kind: request.kind, amountTwd })
  return renderAutoSubmitForm(checkoutUrl(settings.ecpay.endpoint), fields)
}
