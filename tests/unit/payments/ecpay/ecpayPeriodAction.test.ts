import { describe, expect, test } from 'vitest'
import { verifyCheckMacValue } from '../../../../api/payments/ecpay/checkMacValue'
import { buildCancelRequest, cancelPeriod, parsePeriodActionReply } from '../../../../api/payments/ecpay/ecpayPeriodAction'

const keys = { hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' }
const request = buildCancelRequest({ merchantId: '3002607', merchantTradeNo: 'Sub20250101120000', timeStamp: 1735704000 }, keys)

describe('buildCancelRequest', () => {
  test('reproduces the cancel vector', () => {
    expect(request).toEqual({
      MerchantID: '3002607',
      MerchantTradeNo: 'Sub20250101120000',
      Action: 'Cancel',
      TimeStamp: '1735704000',
      CheckMacValue: 'D8E2AC259A6D15A93A00786380065F3F161A4FA31F4E699AD064AAEC936A0022',
    })
  })

  test('rejects a missing trade number and a millisecond or fractional timestamp', () => {
    expect(() => buildCancelRequest({ merchantId: '3002607', merchantTradeNo: '', timeStamp: 1735704000 }, keys)).toThrow(/MerchantTradeNo/)
    expect(() => buildCancelRequest({ merchantId: '3002607', merchantTradeNo: 'A1', timeStamp: 1735704000.5 }, keys)).toThrow(/TimeStamp/)
    expect(() => buildCancelRequest({ merchantId: '', merchantTradeNo: 'A1', timeStamp: 1735704000 }, keys)).toThrow(/MerchantID/)
  })
})

test('parsePeriodActionReply decodes the URL-encoded reply', () => {
  expect(parsePeriodActionReply('MerchantID=3002607&MerchantTradeNo=A1&RtnCode=1&RtnMsg=%E6%88%90%E5%8A%9F\r\n')).toEqual({
    rtnCode: '1',
    rtnMsg: '成功',
  })
  expect(parsePeriodActionReply('')).toEqual({ rtnCode: '', rtnMsg: '' })
})

describe('cancelPeriod', () => {
  function replying(status: number, body: string, seen?: { url?: string; init?: RequestInit }): typeof fetch {
    return (async (url: string, init: RequestInit) => {
      if (seen) Object.assign(seen, { url, init })
      return new Response(body, { status })
    }) as unknown as typeof fetch
  }

  test('POSTs the signed form to CreditCardPeriodAction and reads a success', async () => {
    const seen: { url?: string; init?: RequestInit } = {}
    const outcome = await cancelPeriod('https://payment-stage.ecpay.com.tw/', request, replying(200, 'RtnCode=1&RtnMsg=OK', seen))
    expect(outcome).toEqual({ ok: true, rtnCode: '1', rtnMsg: 'OK' })
    expect(seen.url).toBe('https://payment-stage.ecpay.com.tw/Cashier/CreditCardPeriodAction')
    expect(seen.init?.method).toBe('POST')
    expect(new Headers(seen.init?.headers).get('content-type')).toBe('application/x-www-form-urlencoded')
    const sent = Object.fromEntries(new URLSearchParams(String(seen.init?.body)))
    expect(sent).toEqual(request)
    expect(verifyCheckMacValue(sent, keys.hashKey, keys.hashIV)).toBe(true)
  })

  test('passes on a refusal', async () => {
    expect(await cancelPeriod('https://e.example', request, replying(200, 'RtnCode=10200073&RtnMsg=CheckMacValue+Error'))).toEqual({
      ok: false,
      rtnCode: '10200073',
      rtnMsg: 'CheckMacValue Error',
    })
  })

  test('reports no answer for an HTTP error, an unexpected body and a network failure', async () => {
    expect(await cancelPeriod('https://e.example', request, replying(502, 'Bad gateway'))).toEqual({ ok: false, rtnCode: null, rtnMsg: 'HTTP 502' })
    expect(await cancelPeriod('https://e.example', request, replying(200, '<html>maintenance</html>'))).toMatchObject({
      ok: false,
      rtnCode: null,
      rtnMsg: expect.stringMatching(/unexpected reply/),
    })
    const refused = (async () => {
      throw new TypeError('connection refused')
    }) as unknown as typeof fetch
    expect(await cancelPeriod('https://e.example', request, refused)).toMatchObject({ ok: false, rtnCode: null, rtnMsg: expect.stringMatching(/refused/) })
  })

  test('gives up after the timeout', async () => {
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as unknown as typeof fetch
    expect(await cancelPeriod('https://e.example', request, hanging, 50)).toEqual({ ok: false, rtnCode: null, rtnMsg: 'no reply within 50 ms' })
  })
})
