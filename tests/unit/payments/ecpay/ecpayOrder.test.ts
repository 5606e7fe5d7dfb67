import { describe, expect, test } from 'vitest'
import { verifyCheckMacValue } from '../../../../api/payments/ecpay/checkMacValue'
import {
  AUTO_SUBMIT_FORM_ID,
  buildCheckoutFields,
  type CheckoutOrder,
  formatEcpayDate,
  newMerchantTradeNo,
  renderAutoSubmitForm,
} from '../../../../api/payments/ecpay/ecpayOrder'

const keys = { hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' }

const base: CheckoutOrder = {
  merchantId: '3002607',
  tradeNo: 'IS0001',
  // 16:30:05 UTC on Jan 1 is already Jan 2 in Taipei.
  tradeDate: new Date('2025-01-01T16:30:05Z'),
  amount: 890,
  itemName: 'Ideal Self Premium (monthly)',
  tradeDesc: 'Ideal Self Premium',
  returnUrl: 'https://app.example/api/payments/ecpay/return',
  orderResultUrl: 'https://app.example/app/payments/result',
}

describe('buildCheckoutFields', () => {
  test('a one-time credit order', () => {
    const fields = buildCheckoutFields(base, keys)
    expect(fields).toMatchObject({
      MerchantID: '3002607',
      MerchantTradeNo: 'IS0001',
      MerchantTradeDate: '2025/01/02 00:30:05',
      PaymentType: 'aio',
      TotalAmount: '890',
      TradeDesc: 'Ideal Self Premium',
      ItemName: 'Ideal Self Premium (monthly)',
      ReturnURL: base.returnUrl,
      OrderResultURL: base.orderResultUrl,
      ChoosePayment: 'Credit',
      EncryptType: '1',
    })
    expect(fields).not.toHaveProperty('Language')
    expect(fields).not.toHaveProperty('PeriodType')
    expect(fields.CheckMacValue).toMatch(/^[0-9A-F]{64}$/)
    expect(verifyCheckMacValue(fields, keys.hashKey, keys.hashIV)).toBe(true)
  })

  test('a periodic order charges PeriodAmount = TotalAmount', () => {
    const fields = buildCheckoutFields(
      {
        ...base,
        amount: 9200,
        language: 'ENG',
        customField1: 'user-42',
        period: { type: 'Y', frequency: 1, execTimes: 9, periodReturnUrl: 'https://app.example/api/payments/ecpay/period' },
      },
      keys,
    )
    expect(fields).toMatchObject({
      TotalAmount: '9200',
      PeriodAmount: '9200',
      PeriodType: 'Y',
      Frequency: '1',
      ExecTimes: '9',
      PeriodReturnURL: 'https://app.example/api/payments/ecpay/period',
      Language: 'ENG',
      CustomField1: 'user-42',
    })
    expect(verifyCheckMacValue(fields, keys.hashKey, keys.hashIV)).toBe(true)
  })

  test.each<[string, Partial<CheckoutOrder>, RegExp]>([
    ['zero amount', { amount: 0 }, /TotalAmount/],
    ['fractional amount', { amount: 890.5 }, /TotalAmount/],
    ['negative amount', { amount: -1 }, /TotalAmount/],
    ['NaN amount', { amount: Number.NaN }, /TotalAmount/],
    ['long ItemName', { itemName: 'x'.repeat(401) }, /ItemName must be at most 400/],
    ['empty ItemName', { itemName: ' ' }, /ItemName is required/],
    ['long TradeDesc', { tradeDesc: 'x'.repeat(201) }, /TradeDesc must be at most 200/],
    ['special TradeDesc', { tradeDesc: 'Premium <b>' }, /TradeDesc may contain only/],
    ['long MerchantTradeNo', { tradeNo: 'A'.repeat(21) }, /MerchantTradeNo/],
    ['punctuated MerchantTradeNo', { tradeNo: 'IS-0001' }, /MerchantTradeNo/],
    ['bad MerchantID', { merchantId: '' }, /MerchantID/],
    ['invalid date', { tradeDate: new Date('nope') }, /tradeDate/],
    ['relative ReturnURL', { returnUrl: '/api/return' }, /ReturnURL must be an absolute URL/],
    ['non-http OrderResultURL', { orderResultUrl: 'javascript:alert(1)' }, /OrderResultURL must be http/],
    ['long ReturnURL', { returnUrl: 'https://a.example/' + 'x'.repeat(200) }, /ReturnURL must be at most 200/],
    ['unknown language', { language: 'ZHTW' as never }, /Language must be one of/],
    ['long CustomField1', { customField1: 'x'.repeat(51) }, /CustomField1/],
    ['monthly frequency 13', { period: { type: 'M', frequency: 13, execTimes: 12, periodReturnUrl: 'https://a.example/p' } }, /Frequency/],
    ['yearly frequency 2', { period: { type: 'Y', frequency: 2, execTimes: 5, periodReturnUrl: 'https://a.example/p' } }, /Frequency/],
    ['one execution', { period: { type: 'M', frequency: 1, execTimes: 1, periodReturnUrl: 'https://a.example/p' } }, /ExecTimes/],
    ['too many yearly executions', { period: { type: 'Y', frequency: 1, execTimes: 10, periodReturnUrl: 'https://a.example/p' } }, /ExecTimes/],
    ['missing PeriodReturnURL', { period: { type: 'M', frequency: 1, execTimes: 99, periodReturnUrl: '' } }, /PeriodReturnURL/],
  ])('rejects %s', (_name, change, message) => {
    expect(() => buildCheckoutFields({ ...base, ...change }, keys)).toThrow(message)
  })

  test('counts characters, not UTF-16 units or bytes', () => {
    expect(() => buildCheckoutFields({ ...base, itemName: '方'.repeat(400) }, keys)).not.toThrow()
    expect(() => buildCheckoutFields({ ...base, itemName: '😀'.repeat(400) }, keys)).not.toThrow()
  })
})

test('formatEcpayDate zero-pads and uses Taipei time', () => {
  expect(formatEcpayDate(new Date('2024-02-29T01:02:03Z'))).toBe('2024/02/29 09:02:03')
})

describe('newMerchantTradeNo', () => {
  test('is 20 alphanumeric characters starting with the prefix, and unique', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const no = newMerchantTradeNo('IS')
      expect(no).toMatch(/^IS[A-Z0-9]{18}$/)
      seen.add(no)
    }
    expect(seen.size).toBe(2000)
  })

  test('takes an empty prefix and refuses one that leaves no room or is not alphanumeric', () => {
    expect(newMerchantTradeNo('')).toMatch(/^[A-Z0-9]{20}$/)
    expect(() => newMerchantTradeNo('TOOLONGPREFIX')).toThrow(/prefix/)
    expect(() => newMerchantTradeNo('I_S')).toThrow(/prefix/)
  })
})

describe('renderAutoSubmitForm', () => {
  const page = renderAutoSubmitForm('https://pay.example/Cashier?a=1&b="2"', {
    ItemName: `<script>alert("x")</script> & 'q'`,
    'we"ird': 'v',
  })

  test('escapes every attribute value', () => {
    expect(page).toContain(`value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"`)
    expect(page).toContain('name="we&quot;ird"')
    expect(page).toContain('action="https://pay.example/Cashier?a=1&amp;b=&quot;2&quot;"')
    expect(page).not.toContain('<script>alert')
  })

  test('is a UTF-8 page that submits itself and keeps a button for no-JS browsers', () => {
    expect(page).toMatch(/^<!doctype html>/)
    expect(page).toContain('<meta charset="utf-8">')
    expect(page).toContain(`<form id="${AUTO_SUBMIT_FORM_ID}" method="post"`)
    expect(page.match(/<input type="hidden"/g)).toHaveLength(2)
    expect(page).toContain('<button type="submit">')
    expect(page).toContain(`document.getElementById('${AUTO_SUBMIT_FORM_ID}').submit()`)
  })
})
