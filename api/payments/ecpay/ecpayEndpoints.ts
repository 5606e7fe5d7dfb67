// ECPay's paths below the endpoint base (config.ecpay.endpoint: stage,
// production, or the local stand-in in tests/helpers/fakeEcpay.ts). Shared
// with the stand-in so that only the base URL differs between them.

export const AIO_CHECKOUT_PATH = '/Cashier/AioCheckOut/V5'
export const PERIOD_ACTION_PATH = '/Cashier/CreditCardPeriodAction'

export function checkoutUrl(endpointBase: string): string {
  return endpointBase.replace(/\/$/, '') + AIO_CHECKOUT_PATH
}

export function periodActionUrl(endpointBase: string): string {
  return endpointBase.replace(/\/$/, '') + PERIOD_ACTION_PATH
}
