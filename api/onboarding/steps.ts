// The onboarding steps of spec §2, in order.
export const ONBOARDING_STEPS = [
  'get-username',
  'name-confirmation',
  'story-telling-interaction-generate-ideal-self-description',
  'story-telling-interaction-before-conversation-start',
  'story-telling-interaction-conversation-start',
  'story-telling-interaction-analyzing',
  'meet-your-ideal-self-enter',
  'meet-your-ideal-self-introduction',
] as const

export type OnboardingStep = (typeof ONBOARDING_STEPS)[number]
export const isOnboardingStep = (s: string): s is OnboardingStep => (ONBOARDING_STEPS as readonly string[]).includes(s)
