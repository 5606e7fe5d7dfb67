import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  checkMacSource,
  computeCheckMacValue,
  ecpayUrlEncode,
  signFields,
  verifyCheckMacValue,
} from '../../../../api/payments/ecpay/checkMacValue'
import { SDK_NOTIFICATION, TEST_MERCHANT } from './publishedVectors'

// ECPay's public stage merchant keys, used by every published vector.
const KEY = TEST_MERCHANT.hashKey
const IV = TEST_MERCHANT.hashIV

describe('ECPay published vectors (integrations §1)', () => {
  test('the developer-docs AioCheckOut example, including the encoded intermediate string', () => {
    const fields = {
      TradeDesc: '促銷方案',
      PaymentType: 'aio',
      MerchantTradeDate: '2023/03/12 15:30:23',
      MerchantTradeNo: 'ecpay20230312153023',
      MerchantID: '3002607',
      ReturnURL: 'https://www.ecpay.com.tw/receive.php',
      ItemName: 'Apple iphone 15',
      TotalAmount: '30000',
      ChoosePayment: 'ALL',
      EncryptType: '1',
    }
    // Step (3) of developers.ecpay.com.tw/?p=2902, lowercased as in its step (4).
    const published =
      'hashkey%3dpwfhcqoqzgmho4w6%26choosepayment%3dall%26encrypttype%3d1%26itemname%3dapple+iphone+15' +
      '%26merchantid%3d3002607%26merchanttradedate%3d2023%2f03%2f12+15%3a30%3a23' +
      '%26merchanttradeno%3decpay20230312153023%26paymenttype%3daio' +
      '%26returnurl%3dhttps%3a%2f%2fwww.ecpay.com.tw%2freceive.php%26totalamount%3d30000' +
      '%26tradedesc%3d%e4%bf%83%e9%8a%b7%e6%96%b9%e6%a1%88%26hashiv%3dekrm7ift261dpevs'
    expect(checkMacSource(fields, KEY, IV)).toBe(published)
    expect(computeCheckMacValue(fields, KEY, IV)).toBe('6C51C9E6888DE861FD62FB1DD17029FC742634498FD813DC43D4243B5685B840')
  })

  test('the SDK notification example (GetCheckoutResponse.php)', () => {
    const { CheckMacValue: published, ...fields } = SDK_NOTIFICATION
    expect(computeCheckMacValue(fields, KEY, IV)).toBe(published)
  })

  test('the period-action cancel vector', () => {
    const fields = { MerchantID: '3002607', MerchantTradeNo: 'Sub20250101120000', Action: 'Cancel', TimeStamp: '1735704000' }
    expect(computeCheckMacValue(fields, KEY, IV)).toBe('D8E2AC259A6D15A93A00786380065F3F161A4FA31F4E699AD064AAEC936A0022')
  })

  test('the encoding check', () => {
    expect(ecpayUrlEncode('促銷方案 /:?&=#+@')).toBe('%e4%bf%83%e9%8a%b7%e6%96%b9%e6%a1%88+%2f%3a%3f%26%3d%23%2b%40')
  })
})

describe('ecpayUrlEncode', () => {
  test('leaves - _ . ! * ( ) alone as .NET does, and encodes ~ and apostrophe', () => {
    expect(ecpayUrlEncode("a-b_c.d!e*f(g)h~i'j")).toBe("a-b_c.d!e*f(g)h%7ei%27j")
  })

  test('lowercases letters and hex digits alike', () => {
    expect(ecpayUrlEncode('ABC\n')).toBe('abc%0a')
  })

  test('encodes astral characters as their four UTF-8 bytes', () => {
    expect(ecpayUrlEncode('😀')).toBe('%f0%9f%98%80')
  })
})

describe('field order and content', () => {
  test('sorts keys case-insensitively like strcasecmp, so lowercase extra fields interleave', () => {
    const fields = {
      TradeAmt: '500',
      gwsr: '13955622',
      card4no: '2222',
      CustomField1: '',
      auth_code: '777777',
      MerchantID: '3002607',
      amount: '500',
    }
    const expected =
      'HashKey=K&amount=500&auth_code=777777&card4no=2222&CustomField1=&gwsr=13955622&MerchantID=3002607&TradeAmt=500&HashIV=V'
    expect(checkMacSource(fields, 'K', 'V')).toBe(ecpayUrlEncode(expected))
    const independent = createHash('sha256').update(ecpayUrlEncode(expected)).digest('hex').toUpperCase()
    expect(computeCheckMacValue(fields, 'K', 'V')).toBe(independent)
  })

  test('an empty value still counts', () => {
    expect(computeCheckMacValue({ A: '1', CustomField1: '' }, KEY, IV)).not.toBe(computeCheckMacValue({ A: '1' }, KEY, IV))
  })

  test('an existing CheckMacValue field is ignored', () => {
    const fields = { A: '1', B: '2' }
    expect(computeCheckMacValue({ ...fields, CheckMacValue: 'X' }, KEY, IV)).toBe(computeCheckMacValue(fields, KEY, IV))
  })
})

describe('verifyCheckMacValue', () => {
  const signed = signFields({ MerchantID: '3002607', MerchantTradeNo: 'T1', TradeAmt: '890', RtnCode: '1' }, { hashKey: KEY, hashIV: IV })

  test('accepts a genuine MAC, in upper or lower case', () => {
    expect(verifyCheckMacValue(signed, KEY, IV)).toBe(true)
    expect(verifyCheckMacValue({ ...signed, CheckMacValue: signed.CheckMacValue.toLowerCase() }, KEY, IV)).toBe(true)
  })

  test('rejects a forged MAC, a tampered amount, other keys, a short MAC and a missing MAC', () => {
    expect(verifyCheckMacValue({ ...signed, CheckMacValue: 'A'.repeat(64) }, KEY, IV)).toBe(false)
    expect(verifyCheckMacValue({ ...signed, TradeAmt: '1' }, KEY, IV)).toBe(false)
    expect(verifyCheckMacValue(signed, 'otherKey', IV)).toBe(false)
    expect(verifyCheckMacValue({ ...signed, CheckMacValue: signed.CheckMacValue.slice(0, 63) }, KEY, IV)).toBe(false)
    const { CheckMacValue: _dropped, ...unsigned } = signed
    expect(verifyCheckMacValue(unsigned, KEY, IV)).toBe(false)
  })
})
