import { expect, test } from 'vitest'
import { openingPhrase } from '../../../api/onboarding/improveDescription'

test('the role name without a model is the opening phrase of the description', () => {
  expect(openingPhrase('A calm designer who speaks up in meetings')).toBe('A calm designer')
  expect(openingPhrase('一個冷靜的設計師，能在會議中勇敢發言')).toBe('一個冷靜的設計師')
  expect(openingPhrase('Fearless')).toBe('Fearless')
})
