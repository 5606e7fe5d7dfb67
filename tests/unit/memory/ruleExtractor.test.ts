import { describe, expect, test } from 'vitest'
import { extractByRules } from '../../../api/memory/ruleExtractor'
import { CASES } from './ruleExtractorCases'
import { scoreExtractor } from './scoreExtractor'

describe('rule-based memory extraction on the labelled set', () => {
  const scores = scoreExtractor(CASES, (text) => extractByRules(text))
  for (const lang of ['en', 'zh-TW', 'zh-CN'] as const) {
    test(`${lang}: precision ≥ 95 % and recall ≥ 90 %`, () => {
      const s = scores[lang]
      expect(s.cases).toBeGreaterThan(35)
      expect(s.precision).toBeGreaterThanOrEqual(0.95)
      expect(s.recall).toBeGreaterThanOrEqual(0.9)
    })
  }
})

describe('what a rule memory holds', () => {
  test('the sentence as said, a chip label and the named person', () => {
    expect(extractByRules('Hi! My sister Mei starts university in March. What do you think?')).toEqual([
      { kind: 'event', text: 'My sister Mei starts university in March.', label: 'Mei · sister', personName: 'Mei' },
    ])
    expect(extractByRules("I'm training for the Taipei marathon in April.")[0]).toMatchObject({ kind: 'plan', label: 'Taipei marathon' })
    expect(extractByRules('我在準備四月的台北馬拉松。')[0]).toMatchObject({ kind: 'plan', text: '我在準備四月的台北馬拉松。' })
  })

  test('a person of the graph named in a sentence is linked even without a relation word', () => {
    expect(extractByRules('I love cooking with Jun', ['Jun'])[0]).toMatchObject({ kind: 'preference', personName: 'Jun' })
  })
})
