// What the payment features take from the configuration, and the callback URLs ECPay is given.
import type { Config, LimitPeriod } from '../config'
import { definePlans, type Plans } from './plans'

export interface PaymentSettings {
  ecpay: Config['ecpay']
  publicUrl: string
  production: boolean
  plans: Plans
  free: { messageLimit: number; period: LimitPeriod }
}

export function paymentSettings(cfg: Config, plans: Plans = definePlans()): PaymentSettings {
  return {
    ecpay: cfg.ecpay,
    publicUrl: cfg.publicUrl,
    production: cfg.production,
    plans,
    free: { messageLimit: cfg.freeMessageLimit, period: cfg.freeLimitPeriod },
  }
}

/** Where ECPay reaches us; the paths are those of api/routes/payments.ts under /api/v1. */
export function callbackUrls(publicUrl: string) {
  const base = `${publicUrl}/api/v1/payments/ecpay`
  return { return: `${base}/return`, periodReturn: `${base}/period-return`, orderResult: `${base}/order-result` }
}

/** The app page a payment ends on (spec §4 "Subscription"). */
export function subscriptionPageUrl(
  publicUrl: string,
  result: { success: boolean; planId?: string; planType?: string; provider?: string },
): string {
  const query = new URLSearchParams({ success: String(result.success) })
  if (result.planId) query.set('planId', result.planId)
  if (result.planType) query.set('planType', result.planType)
  if (result.provider) query.set('provider', result.provider)
  return `${publicUrl}/app/subscription?${query}`
}
