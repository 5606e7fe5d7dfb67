import { expect, test } from 'vitest'
import { planOverrides } from '../../../api/payments/planContent'
import { definePlans } from '../../../api/payments/plans'

test('prices edited in the subscription-plans content become the plan prices', () => {
  const plans = definePlans(
    planOverrides([
      { field_values: { planId: 'free', priceUsd: 0, twdAmount: 0 } },
      { field_values: { planId: 'subscriptionMonthly', priceUsd: 31.5, twdAmount: 990 } },
      { field_values: { planId: 'subscriptionYearly', priceUsd: 320, twdAmount: 9800 } },
    ]),
  )
  expect(plans.subscriptionMonthly).toMatchObject({ displayPriceCents: 3150, twdAmount: 990 })
  expect(plans.subscriptionYearly).toMatchObject({ displayPriceCents: 32000, twdAmount: 9800 })
})

test('a row without a usable price keeps the built-in one', () => {
  const plans = definePlans(planOverrides([{ field_values: { planId: 'subscriptionMonthly', priceUsd: 0, twdAmount: -5 } }]))
  expect(plans.subscriptionMonthly).toMatchObject({ displayPriceCents: 2900, twdAmount: 890 })
})
