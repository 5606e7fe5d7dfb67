import { describe, expect, test } from 'vitest'
import { signFields } from '../../../../api/payments/ecpay/checkMacValue'
import { extendExpiry, parseFormBody, verifyNotification } from '../../../../api/payments/ecpay/ecpayNotification'
import { SDK_NOTIFICATION, TEST_MERCHANT } from './publishedVectors'

const merchant = TEST_MERCHANT
const sdkExample = SDK_NOTIFICATION

const periodNotice = signFields(
  {
    MerchantID: '3002607',
    MerchantTradeNo: 'IS0001',
    StoreID: '',
    RtnCode: '1',
    RtnMsg: '交易成功',
    PeriodType: 'M',
    Frequency: '1',
    ExecTimes: '99',
    Amount: '890',
    Gwsr: '13955622',
    ProcessDate: '2025/02/01 10:00:00',
    AuthCode: '777777',
    FirstAuthAmount: '890',
    TotalSuccessTimes: '2',
    SimulatePaid: '0',
    CustomField1: '',
    CustomField2: '',
    CustomField3: '',
    CustomField4: '',
  },
  merchant,
)

describe('verifyNotification', () => {
  test('accepts the SDK ReturnURL example', () => {
    expect(verifyNotification(sdkExample, merchant)).toEqual({
      ok: true,
      kind: 'first',
      merchantTradeNo: 'WPLL4E341E122DB44D62',
      tradeNo: '1905090000188278',
      paid: true,
      simulated: false,
      amount: 500,
      rtnCode: '1',
      rtnMsg: '交易成功',
      processedAt: '2019/05/09 00:01:21',
      totalSuccessTimes: null,
      chargeKey: 'first:1905090000188278',
      customField1: '',
    })
  })

  test('accepts a lowercase MAC', () => {
    expect(verifyNotification({ ...sdkExample, CheckMacValue: sdkExample.CheckMacValue.toLowerCase() }, merchant).ok).toBe(true)
  })

  test('rejects a tampered amount, a forged MAC, a missing MAC and another merchant', () => {
    expect(verifyNotification({ ...sdkExample, TradeAmt: '5' }, merchant)).toEqual({ ok: false, reason: 'CheckMacValue does not match' })
    expect(verifyNotification({ ...sdkExample, CheckMacValue: '0'.repeat(64) }, merchant).ok).toBe(false)
    const { CheckMacValue: _dropped, ...unsigned } = sdkExample
    expect(verifyNotification(unsigned, merchant)).toEqual({ ok: false, reason: 'CheckMacValue is missing' })
    const other = signFields({ ...unsigned, MerchantID: '2000132' }, merchant)
    expect(verifyNotification(other, merchant)).toMatchObject({ ok: false, reason: expect.stringMatching(/MerchantID/) })
  })

  test('reports unpaid and simulated notifications as such', () => {
    const { CheckMacValue: _dropped, ...unsigned } = sdkExample
    expect(verifyNotification(signFields({ ...unsigned, RtnCode: '10100248' }, merchant), merchant)).toMatchObject({ ok: true, paid: false })
    expect(verifyNotification(signFields({ ...unsigned, SimulatePaid: '1' }, merchant), merchant)).toMatchObject({ ok: true, simulated: true })
  })

  test('reads a PeriodReturnURL notice', () => {
    expect(verifyNotification(periodNotice, merchant)).toMatchObject({
      ok: true,
      kind: 'period',
      merchantTradeNo: 'IS0001',
      tradeNo: null,
      paid: true,
      amount: 890,
      processedAt: '2025/02/01 10:00:00',
      totalSuccessTimes: 2,
      chargeKey: 'period:IS0001:2025/02/01 10:00:00:13955622',
    })
  })

  test('does not take the lowercase extra-info `amount` for the charged amount', () => {
    const { CheckMacValue: _dropped, TradeAmt: _amt, ...rest } = sdkExample
    const fields = signFields({ ...rest, amount: '500' }, merchant)
    expect(verifyNotification(fields, merchant)).toEqual({ ok: false, reason: 'neither TradeAmt nor Amount is present' })
  })

  test('rejects a non-integer amount and a missing TradeNo even when signed', () => {
    const { CheckMacValue: _dropped, ...unsigned } = sdkExample
    expect(verifyNotification(signFields({ ...unsigned, TradeAmt: '5.5' }, merchant), merchant)).toMatchObject({ ok: false })
    expect(verifyNotification(signFields({ ...unsigned, TradeNo: '' }, merchant), merchant)).toMatchObject({ ok: false })
  })
})

test('parseFormBody decodes form encoding, + as space', () => {
  expect(parseFormBody('RtnMsg=%E4%BA%A4%E6%98%93%E6%88%90%E5%8A%9F&PaymentDate=2019%2F05%2F09+00%3A01%3A21&CustomField1=')).toEqual({
    RtnMsg: '交易成功',
    PaymentDate: '2019/05/09 00:01:21',
    CustomField1: '',
  })
})

describe('extendExpiry', () => {
  const at = (iso: string) => new Date(iso)

  test('a month from now for a new subscriber', () => {
    expect(extendExpiry(null, at('2025-03-10T04:00:00Z'), 'M')).toEqual(at('2025-04-10T04:00:00Z'))
  })

  test('a year from now for a new subscriber, across the year end', () => {
    expect(extendExpiry(null, at('2025-12-15T04:00:00Z'), 'Y')).toEqual(at('2026-12-15T04:00:00Z'))
    expect(extendExpiry(null, at('2025-12-15T04:00:00Z'), 'M')).toEqual(at('2026-01-15T04:00:00Z'))
  })

  test('clamps to the end of a shorter month, with Feb 29 in leap years', () => {
    expect(extendExpiry(null, at('2025-01-31T04:00:00Z'), 'M')).toEqual(at('2025-02-28T04:00:00Z'))
    expect(extendExpiry(null, at('2024-01-31T04:00:00Z'), 'M')).toEqual(at('2024-02-29T04:00:00Z'))
    expect(extendExpiry(null, at('2025-03-31T04:00:00Z'), 'M')).toEqual(at('2025-04-30T04:00:00Z'))
    expect(extendExpiry(null, at('2024-02-29T04:00:00Z'), 'Y')).toEqual(at('2025-02-28T04:00:00Z'))
  })

  test('counts calendar months in Taipei, not UTC', () => {
    // 2025-01-30T17:00Z is Jan 31 01:00 in Taipei, so one month on is Feb 28 01:00 Taipei.
    expect(extendExpiry(null, at('2025-01-30T17:00:00Z'), 'M')).toEqual(at('2025-02-27T17:00:00Z'))
  })

  test('extends from a current expiry that is still ahead', () => {
    expect(extendExpiry(at('2025-05-20T00:00:00Z'), at('2025-05-01T00:00:00Z'), 'M')).toEqual(at('2025-06-20T00:00:00Z'))
    expect(extendExpiry(at('2025-05-20T00:00:00Z'), at('2025-05-01T00:00:00Z'), 'Y')).toEqual(at('2026-05-20T00:00:00Z'))
  })

  test('extends from now when the current expiry has passed', () => {
    expect(extendExpiry(at('2025-01-01T00:00:00Z'), at('2025-05-01T00:00:00Z'), 'M')).toEqual(at('2025-06-01T00:00:00Z'))
  })
})
