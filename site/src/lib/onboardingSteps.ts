// The onboarding steps of spec §2, in order; the first six show the progress bar (0–5 of 6).
export const STEPS = [
  'get-username',
  'name-confirmation',
  'story-telling-interaction-generate-ideal-self-description',
  'story-telling-interaction-before-conversation-start',
  'story-telling-interaction-conversation-start',
  'story-telling-interaction-analyzing',
  'meet-your-ideal-self-enter',
  'meet-your-ideal-self-introduction',
] as const
export type Step = (typeof STEPS)[number]
export const isStep = (s: string | null | undefined): s is Step => !!s && (STEPS as readonly string[]).includes(s)
export const PROGRESS_STEPS = 6
export const stepUrl = (step: Step, extra = '') => `/app/onboarding?step=${step}${extra}`

/** Analyzing progress (spec §4, §9): 240 s in total, a tick every 200 ms, capped at 99.999999. */
export const ANALYZING_TOTAL_MS = 240_000
export const ANALYZING_TICK_MS = 200
export const ANALYZING_CAP = 99.999999
export const analyzingPercent = (elapsedMs: number) => Math.min(ANALYZING_CAP, (elapsedMs / ANALYZING_TOTAL_MS) * 100)
