// Pieces every onboarding step uses: the progress bar, the guide's typed lines, moving on to a step.
import { GuideAvatar } from '../GuideAvatar'
import { TypingText } from '../TypingText'
import { useT } from '../../lib/reactI18n'
import { PROGRESS_STEPS, STEPS, stepUrl, type Step } from '../../lib/onboardingSteps'

export interface StoryEntry { role: 'GUIDE' | 'USER'; content: string; help?: boolean }
export const go = (step: Step, extra = '') => location.assign(stepUrl(step, extra))

export function Progress({ step }: { step: Step }) {
  const t = useT()
  const index = STEPS.indexOf(step)
  if (index >= PROGRESS_STEPS) return null
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={PROGRESS_STEPS} aria-valuenow={index} aria-label={t('onboarding.progress', { n: index + 1, total: PROGRESS_STEPS })}>
      <div className="progress-fill" style={{ width: `${(index / PROGRESS_STEPS) * 100}%` }} />
    </div>
  )
}

export function GuideSays({ text, onDone }: { text: string; onDone?: () => void }) {
  const t = useT()
  return (
    <div className="guide-line">
      <GuideAvatar size={48} label={t('onboarding.guide')} />
      <TypingText className="guide-text" text={text} onDone={onDone} />
    </div>
  )
}
