import { describe, expect, test } from 'vitest'
import {
  chargeAmountTwd,
  DEFAULT_PLANS,
  definePlans,
  formatUsd,
  isPlanId,
  planPeriod,
  yearlySavings,
} from '../../../api/payments/plans'

describe('yearlySavings', () => {
  test("the spec's prices: strike-through $348, save $48 a year, 13.8% (not the spec's 10.7%)", () => {
    const savings = yearlySavings(DEFAULT_PLANS.subscriptionMonthly.displayPriceCents, DEFAULT_PLANS.subscriptionYearly.displayPriceCents)
    expect(savings).toEqual({ strikeThroughCents: 34800, saveCents: 4800, savePercent: 13.8 })
    expect(formatUsd(savings.strikeThroughCents)).toBe('$348')
    expect(formatUsd(savings.saveCents)).toBe('$48')
  })

  test('10.7% is what a $28 monthly price would give', () => {
    expect(yearlySavings(2800, 30000).savePercent).toBe(10.7)
  })

  test('rounds an exact half up and reports a yearly plan that costs more as negative', () => {
    // 1200 × 12 = 14400, save 180 = 1.25% exactly.
    expect(yearlySavings(1200, 14220).savePercent).toBe(1.3)
    expect(yearlySavings(1000, 13000)).toEqual({ strikeThroughCents: 12000, saveCents: -1000, savePercent: -8.3 })
  })

  test('refuses non-integer cents', () => {
    expect(() => yearlySavings(29.99, 30000)).toThrow(/monthlyCents/)
  })
})

test('formatUsd', () => {
  expect(formatUsd(2900)).toBe('$29')
  expect(formatUsd(2950)).toBe('$29.50')
  expect(formatUsd(5)).toBe('$0.05')
  expect(formatUsd(-4800)).toBe('-$48')
})

describe('plans', () => {
  test('charge whole TWD: 890 a month and 9200 a year by default', () => {
    expect(chargeAmountTwd(DEFAULT_PLANS.subscriptionMonthly)).toBe(890)
    expect(chargeAmountTwd(DEFAULT_PLANS.subscriptionYearly)).toBe(9200)
  })

  test('definePlans applies configured prices and validates them', () => {
    const plans = definePlans({ subscriptionMonthly: { twdAmount: 900 }, subscriptionYearly: { displayPriceCents: 29900 } })
    expect(chargeAmountTwd(plans.subscriptionMonthly)).toBe(900)
    expect(plans.subscriptionYearly).toMatchObject({ displayPriceCents: 29900, twdAmount: 9200 })
    expect(definePlans()).toEqual(DEFAULT_PLANS)
    expect(() => definePlans({ subscriptionYearly: { twdAmount: 9200.5 } })).toThrow(/subscriptionYearly.twdAmount/)
    expect(() => definePlans({ subscriptionMonthly: { displayPriceCents: 0 } })).toThrow(/displayPriceCents/)
  })

  test('chargeAmountTwd refuses a hand-built plan with a fractional amount', () => {
    expect(() => chargeAmountTwd({ ...DEFAULT_PLANS.subscriptionMonthly, twdAmount: 29.99 })).toThrow(/twdAmount/)
  })

  test('planPeriod renews every period for as long as ECPay allows', () => {
    expect(planPeriod(DEFAULT_PLANS.subscriptionMonthly, 'https://a.example/p')).toEqual({
      type: 'M',
      frequency: 1,
      execTimes: 99,
      periodReturnUrl: 'https://a.example/p',
    })
    expect(planPeriod(DEFAULT_PLANS.subscriptionYearly, 'https://a.example/p')).toMatchObject({ type: 'Y', frequency: 1, execTimes: 9 })
  })

  test('isPlanId knows the two route names', () => {
    expect(isPlanId('subscriptionMonthly')).toBe(true)
    expect(isPlanId('subscriptionYearly')).toBe(true)
    expect(isPlanId('lifetime')).toBe(false)
  })
})
