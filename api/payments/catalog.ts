// The plan page's figures, from the same plan definitions and settings that charge and limit users,
// so the copy can never promise something else than what happens.
import { PLAN_IDS, formatUsd, yearlySavings, type Plans } from './plans'
import type { LimitPeriod } from '../config'

const PERIOD_NAMES = { M: 'month', Y: 'year' } as const

export function planCatalog(plans: Plans, free: { messageLimit: number; period: LimitPeriod }) {
  const savings = yearlySavings(plans.subscriptionMonthly.displayPriceCents, plans.subscriptionYearly.displayPriceCents)
  return {
    provider: 'ECPAY' as const,
    free: { messageLimit: free.messageLimit, period: free.period },
    plans: PLAN_IDS.map((id) => ({
      id,
      period: PERIOD_NAMES[plans[id].periodType],
      priceCents: plans[id].displayPriceCents,
      price: formatUsd(plans[id].displayPriceCents),
      chargeTwd: plans[id].twdAmount,
    })),
    yearlySavings: {
      strikeThroughCents: savings.strikeThroughCents,
      strikeThrough: formatUsd(savings.strikeThroughCents),
      saveCents: savings.saveCents,
      save: formatUsd(savings.saveCents),
      savePercent: savings.savePercent,
    },
  }
}
