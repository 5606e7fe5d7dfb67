import { describe, expect, test } from 'vitest'
import { definePlans } from '../../../api/payments/plans'
import { planCatalog } from '../../../api/payments/catalog'

describe('planCatalog', () => {
  test('the copy follows the configured allowance and prices', () => {
    const plans = definePlans({ subscriptionMonthly: { displayPriceCents: 2800 }, subscriptionYearly: { displayPriceCents: 30000 } })
    const catalog = planCatalog(plans, { messageLimit: 20, period: 'day' })
    expect(catalog.free).toEqual({ messageLimit: 20, period: 'day' })
    expect(catalog.plans.map((p) => [p.id, p.period, p.price])).toEqual([
      ['subscriptionMonthly', 'month', '$28'],
      ['subscriptionYearly', 'year', '$300'],
    ])
    // $28 a month is the price at which the "save 10.7%" copy would be true.
    expect(catalog.yearlySavings).toEqual({ strikeThroughCents: 33600, strikeThrough: '$336', saveCents: 3600, save: '$36', savePercent: 10.7 })
  })
})
