// Cancelling a periodic (subscription) schedule through ECPay's
// CreditCardPeriodAction. Unlike checkout this is a server-to-server call.
// Cancelling is irreversible at ECPay, so callers should only record the
// cancellation once the reply says RtnCode=1.

import { type EcpayKeys, signFields } from './checkMacValue'
import { periodActionUrl } from './ecpayEndpoints'

export interface CancelRequest {
  merchantId: string
  /** The MerchantTradeNo of the original periodic order. */
  merchantTradeNo: string
  /** Unix seconds; ECPay accepts it for 3 minutes. */
  timeStamp: number
}

export function buildCancelRequest(request: CancelRequest, keys: EcpayKeys): Record<string, string> {
  if (!request.merchantId) throw new Error('ECPay cancel: MerchantID is required')
  if (!/^[A-Za-z0-9]{1,20}$/.test(request.merchantTradeNo)) {
    throw new Error('ECPay cancel: MerchantTradeNo must be 1-20 letters or digits')
  }
  if (!Number.isSafeInteger(request.timeStamp) || request.timeStamp <= 0) {
    throw new Error(`ECPay cancel: TimeStamp must be positive unix seconds (got ${request.timeStamp})`)
  }
  return signFields(
    {
      MerchantID: request.merchantId,
      MerchantTradeNo: request.merchantTradeNo,
      Action: 'Cancel',
      TimeStamp: String(request.timeStamp),
    },
    keys,
  )
}

export interface PeriodActionReply {
  rtnCode: string
  rtnMsg: string
}

/** ECPay answers with a URL-encoded string such as `MerchantID=..&RtnCode=1&RtnMsg=..`. */
export function parsePeriodActionReply(text: string): PeriodActionReply {
  const reply = new URLSearchParams(text.trim())
  return { rtnCode: reply.get('RtnCode') ?? '', rtnMsg: reply.get('RtnMsg') ?? '' }
}

export interface CancelOutcome {
  ok: boolean
  /** null when no ECPay answer arrived (network error, timeout, non-2xx status, no RtnCode). */
  rtnCode: string | null
  rtnMsg: string
}

/**
 * POSTs signed cancel fields to ECPay. Never throws: a failure to reach ECPay
 * comes back as `rtnCode: null` so the caller can tell "try again later"
 * apart from a refusal.
 */
export async function cancelPeriod(
  endpointBase: string,
  fields: Record<string, string>,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 10_000,
): Promise<CancelOutcome> {
  let status: number
  let text: string
  try {
    const response = await fetchImpl(periodActionUrl(endpointBase), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    })
    status = response.status
    text = await response.text()
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError'
    return {
      ok: false,
      rtnCode: null,
      rtnMsg: timedOut ? `no reply within ${timeoutMs} ms` : `request failed: ${String(error)}`,
    }
  }
  if (status < 200 || status > 299) return { ok: false, rtnCode: null, rtnMsg: `HTTP ${status}` }
  const reply = parsePeriodActionReply(text)
  if (!reply.rtnCode) return { ok: false, rtnCode: null, rtnMsg: `unexpected reply: ${text.slice(0, 200)}` }
  return { ok: reply.rtnCode === '1', ...reply }
}
