import { expect, test } from 'vitest'
import { replyLanguage } from '../../../api/llm/language'

test.each([
  ['I keep putting things off', undefined, 'en-US'],
  ['我最近工作壓力很大，不知道該怎麼辦', undefined, 'zh-TW'],
  ['我最近工作压力很大，不知道该怎么办', undefined, 'zh-CN'],
  ['我今天去 meeting 了', undefined, 'zh-TW'],
  ['I talked to 媽媽 about the move today', undefined, 'en-US'],
  ['你好', undefined, 'zh-TW'],
  ['你好', 'zh-CN', 'zh-CN'],
  ['你好', 'en-US', 'zh-TW'],
  ['👍', 'zh-CN', 'zh-CN'],
  ['', undefined, 'en-US'],
  ['今日は疲れた', undefined, 'en-US'],
  ['Estoy cansado', 'zh-TW', 'en-US'],
] as const)('%j (fallback %s) → %s', (text, fallback, expected) => {
  expect(replyLanguage(text, fallback)).toBe(expected)
})
