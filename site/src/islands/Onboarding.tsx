// The 8-step onboarding of spec §2/§4: each step is its own page view; this island runs the current one
// (components/onboarding/: the name steps, the story, the finish).
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Progress } from '../components/onboarding/shared'
import { BeforeStory, Describe, GetUsername, NameConfirmation } from '../components/onboarding/NameSteps'
import { Story } from '../components/onboarding/Story'
import { Analyzing, Enter, Introduction } from '../components/onboarding/Finish'
import type { Step } from '../lib/onboardingSteps'

interface Props {
  step: Step
  userName: string
  description: string
  hints: string[]
  storyLanguage: string
  finishedWatchingIntro: boolean
}

function Steps(props: Props) {
  const body = (() => {
    switch (props.step) {
      case 'get-username': return <GetUsername initial={props.userName} />
      case 'name-confirmation': return <NameConfirmation name={props.userName} />
      case 'story-telling-interaction-generate-ideal-self-description': return <Describe initial={props.description} hints={props.hints} />
      case 'story-telling-interaction-before-conversation-start': return <BeforeStory />
      case 'story-telling-interaction-conversation-start': return <Story language={props.storyLanguage} />
      case 'story-telling-interaction-analyzing': return <Analyzing userName={props.userName} description={props.description} />
      case 'meet-your-ideal-self-enter': return <Enter />
      case 'meet-your-ideal-self-introduction': return <Introduction name={props.userName} skipIntro={props.finishedWatchingIntro} />
    }
  })()
  return (
    <>
      <Progress step={props.step} />
      {body}
    </>
  )
}

export default function Onboarding(props: Props) {
  return (
    <ErrorBoundary>
      <Steps {...props} />
    </ErrorBoundary>
  )
}
