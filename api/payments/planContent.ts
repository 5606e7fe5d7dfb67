// Prices come from the admin-edited `subscription-plans` content, so what the plan page shows and what ECPay
// charges are the same figures; a row that does not make a valid price keeps the built-in one.
import type { Sql } from '../db/database'
import { contentRecords } from '../content/store'
import { PLAN_IDS, definePlans, type PlanOverrides, type Plans } from './plans'

export function planOverrides(rows: { field_values: Record<string, unknown> }[]): PlanOverrides {
  const overrides: PlanOverrides = {}
  for (const id of PLAN_IDS) {
    const values = rows.find((r) => r.field_values.planId === id)?.field_values
    if (!values) continue
    const cents = Math.round(Number(values.priceUsd) * 100)
    const twd = Number(values.twdAmount)
    overrides[id] = {
      ...(Number.isSafeInteger(cents) && cents > 0 ? { displayPriceCents: cents } : {}),
      ...(Number.isSafeInteger(twd) && twd > 0 ? { twdAmount: twd } : {}),
    }
  }
  return overrides
}

export async function plansFromContent(sql: Sql): Promise<Plans> {
  return definePlans(planOverrides(await contentRecords(sql, 'subscription-plans')))
}
