// Premium plans: the prices the plan page shows, the savings it claims, and
// the whole-TWD amounts ECPay charges. The page and the API both take their
// figures from here so the arithmetic on screen is always the real one.
//
// Spec §9 says: annual $300 (strike-through $348, save $48/year, "save 10.7%"),
// monthly $29. The first three agree ($29 × 12 = $348, $348 − $300 = $48) but
// no reading of them gives 10.7%: 48/348 = 13.8%, 48/300 = 16.0%. 10.7% is
// 1 − 300/336, i.e. the saving against a $28 monthly price, so the copy looks
// stale. yearlySavings() computes the saving against twelve monthly payments:
// 13.8% with the spec's prices.

import type { PeriodSchedule } from './ecpay/ecpayOrder'

export type PlanId = 'subscriptionMonthly' | 'subscriptionYearly'
export const PLAN_IDS: readonly PlanId[] = ['subscriptionMonthly', 'subscriptionYearly']

export interface PlanDefinition {
  id: PlanId
  periodType: 'M' | 'Y'
  /** The price on the plan page, in US cents (integers keep the arithmetic exact). */
  displayPriceCents: number
  /** What ECPay charges: TotalAmount is whole New Taiwan dollars. */
  twdAmount: number
  /** Length of ECPay's renewal schedule; ECPay's maximum for the period type. */
  execTimes: number
  itemName: string
}

export type Plans = Record<PlanId, PlanDefinition>

// TWD defaults: the USD price at about 30.7 TWD per USD, rounded to a
// price-like figure (29 → 890, 300 → 9200). The yearly plan then saves 13.9%
// in TWD, in line with the 13.8% shown in USD. Override per deployment with
// definePlans().
export const DEFAULT_PLANS: Plans = {
  subscriptionMonthly: {
    id: 'subscriptionMonthly',
    periodType: 'M',
    displayPriceCents: 2900,
    twdAmount: 890,
    execTimes: 99,
    itemName: 'Ideal Self Premium (monthly)',
  },
  subscriptionYearly: {
    id: 'subscriptionYearly',
    periodType: 'Y',
    displayPriceCents: 30000,
    twdAmount: 9200,
    execTimes: 9,
    itemName: 'Ideal Self Premium (yearly)',
  },
}

export type PlanOverrides = Partial<Record<PlanId, Partial<Pick<PlanDefinition, 'displayPriceCents' | 'twdAmount'>>>>

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer (got ${value})`)
}

/** The default plans with configured prices applied, validated up front so a bad setting fails at start-up. */
export function definePlans(overrides: PlanOverrides = {}): Plans {
  const plans = {} as Plans
  for (const id of PLAN_IDS) {
    const plan = { ...DEFAULT_PLANS[id], ...overrides[id] }
    requirePositiveInteger(`${id}.displayPriceCents`, plan.displayPriceCents)
    requirePositiveInteger(`${id}.twdAmount`, plan.twdAmount)
    plans[id] = plan
  }
  return plans
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value)
}

/** The amount to put in the ECPay order (TotalAmount and PeriodAmount). */
export function chargeAmountTwd(plan: PlanDefinition): number {
  requirePositiveInteger(`${plan.id}.twdAmount`, plan.twdAmount)
  return plan.twdAmount
}

/** ECPay's schedule for an auto-renewing plan: one charge every period. */
export function planPeriod(plan: PlanDefinition, periodReturnUrl: string): PeriodSchedule {
  return { type: plan.periodType, frequency: 1, execTimes: plan.execTimes, periodReturnUrl }
}

export interface YearlySavings {
  /** Twelve monthly payments: the struck-through price. */
  strikeThroughCents: number
  /** What the yearly plan saves per year (negative if it costs more). */
  saveCents: number
  /** saveCents as a percentage of the strike-through price, one decimal. */
  savePercent: number
}

export function yearlySavings(monthlyCents: number, yearlyCents: number): YearlySavings {
  requirePositiveInteger('monthlyCents', monthlyCents)
  requirePositiveInteger('yearlyCents', yearlyCents)
  const strikeThroughCents = monthlyCents * 12
  const saveCents = strikeThroughCents - yearlyCents
  // Scaling to tenths of a percent before dividing keeps exact halves exact, so
  // they round up as a reader expects (toFixed(1) on save/strike*100 need not).
  const savePercent = Math.round((saveCents * 1000) / strikeThroughCents) / 10
  return { strikeThroughCents, saveCents, savePercent }
}

/** "$29" for whole dollars, "$29.50" otherwise. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const dollars = Math.floor(abs / 100)
  const rest = abs % 100
  return `${sign}$${dollars}${rest ? '.' + String(rest).padStart(2, '0') : ''}`
}
