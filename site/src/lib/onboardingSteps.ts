// The onboarding steps as the pages use them; the list itself is the API's (spec §2), the first six show the
// progress bar (0–5 of 6).
import { ONBOARDING_STEPS, isOnboardingStep, type OnboardingStep } from '../../../api/onboarding/steps'

export const STEPS = ONBOARDING_STEPS
export type Step = OnboardingStep
export const isStep = (s: string | null | undefined): s is Step => !!s && isOnboardingStep(s)
export const PROGRESS_STEPS = 6
export const stepUrl = (step: Step, extra = '') => `/app/onboarding?step=${step}${extra}`

/** Analyzing progress (spec §4, §9): 240 s in total, a tick every 200 ms, capped at 99.999999. */
export const ANALYZING_TOTAL_MS = 240_000
export const ANALYZING_TICK_MS = 200
export const ANALYZING_CAP = 99.999999
export const analyzingPercent = (elapsedMs: number) => Math.min(ANALYZING_CAP, (elapsedMs / ANALYZING_TOTAL_MS) * 100)
