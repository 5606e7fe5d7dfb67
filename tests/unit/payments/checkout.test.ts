import { describe, expect, test } from 'vitest'
import { ecpayLanguage, resolveOrderResultUrl } from '../../../api/payments/checkout'
import { subscriptionPageUrl } from '../../../api/payments/settings'

describe('ecpayLanguage', () => {
  test('ENG by default; ENG, KOR and JPN pass through in any case', () => {
    expect(ecpayLanguage(undefined)).toBe('ENG')
    expect(ecpayLanguage('')).toBe('ENG')
    expect(ecpayLanguage('kor')).toBe('KOR')
    expect(ecpayLanguage(' JPN ')).toBe('JPN')
  })

  test("CHI and zh-* leave the field out, so ECPay's page stays in Traditional Chinese", () => {
    for (const value of ['CHI', 'chi', 'zh', 'zh-TW', 'ZH_tw']) expect(ecpayLanguage(value)).toBeUndefined()
  })

  test('anything else is a 400 naming the accepted values', () => {
    for (const value of ['FRA', 'zhx', 'english'])
      expect(() => ecpayLanguage(value)).toThrow('language must be one of ENG, KOR, JPN, CHI')
  })
})

describe('resolveOrderResultUrl', () => {
  const publicUrl = 'https://app.example'

  test('defaults to our order-result endpoint', () => {
    expect(resolveOrderResultUrl(publicUrl, undefined)).toBe('https://app.example/api/v1/payments/ecpay/order-result')
    expect(resolveOrderResultUrl(publicUrl, '  ')).toBe('https://app.example/api/v1/payments/ecpay/order-result')
  })

  test('accepts absolute or relative URLs on our origin', () => {
    expect(resolveOrderResultUrl(publicUrl, 'https://app.example/app/subscription?x=1')).toBe('https://app.example/app/subscription?x=1')
    expect(resolveOrderResultUrl(publicUrl, '/app/subscription')).toBe('https://app.example/app/subscription')
  })

  test('refuses other origins, including look-alikes, and over-long URLs', () => {
    for (const url of ['https://evil.example/', 'http://app.example/x', 'https://app.example.evil.example/', '//evil.example/x'])
      expect(() => resolveOrderResultUrl(publicUrl, url)).toThrow('orderResultUrl must be a page of this app at its PUBLIC_URL, https://app.example')
    expect(() => resolveOrderResultUrl(publicUrl, `/${'a'.repeat(200)}`)).toThrow('at most 200 characters')
  })
})

describe('resolveOrderResultUrl on another name of this machine', () => {
  const publicUrl = 'http://localhost:4321'
  const development = (requestUrl?: string) => ({ production: false, requestUrl })

  test('in development, 127.0.0.1, [::1] or the address the request came in on are moved onto PUBLIC_URL', () => {
    for (const url of ['http://127.0.0.1:4321/api/v1/payments/ecpay/order-result', 'http://[::1]:4321/api/v1/payments/ecpay/order-result'])
      expect(resolveOrderResultUrl(publicUrl, url, development())).toBe('http://localhost:4321/api/v1/payments/ecpay/order-result')
    expect(resolveOrderResultUrl(publicUrl, 'http://192.168.1.20:4321/app/subscription?x=1', development('http://192.168.1.20:4321/api/v1/payments/x')))
      .toBe('http://localhost:4321/app/subscription?x=1')
    expect(resolveOrderResultUrl('http://127.0.0.1:4321', 'http://localhost:4321/app/subscription', development())).toBe('http://127.0.0.1:4321/app/subscription')
  })

  test('in development, other ports, schemes and hosts are still refused', () => {
    for (const url of ['http://127.0.0.1:9999/x', 'https://127.0.0.1:4321/x', 'http://evil.example:4321/x', 'http://localhost.evil.example:4321/x'])
      expect(() => resolveOrderResultUrl(publicUrl, url, development('http://127.0.0.1:4321/api'))).toThrow('PUBLIC_URL, http://localhost:4321')
  })

  test('in production only PUBLIC_URL itself is accepted, and the refusal names it', () => {
    expect(() => resolveOrderResultUrl('https://app.example', 'http://127.0.0.1:443/x', { production: true, requestUrl: 'http://127.0.0.1:443/api' }))
      .toThrow('orderResultUrl must be a page of this app at its PUBLIC_URL, https://app.example')
    expect(resolveOrderResultUrl('https://app.example', '/app/subscription', { production: true })).toBe('https://app.example/app/subscription')
  })
})

describe('subscriptionPageUrl', () => {
  test('names the result, and the plan when known', () => {
    expect(subscriptionPageUrl('https://app.example', { success: false })).toBe('https://app.example/app/subscription?success=false')
    expect(
      subscriptionPageUrl('https://app.example', { success: true, planId: 'subscriptionYearly', planType: 'subscription', provider: 'ECPAY' }),
    ).toBe('https://app.example/app/subscription?success=true&planId=subscriptionYearly&planType=subscription&provider=ECPAY')
  })
})
