import { describe, expect, test } from 'vitest'
import { expressesSelfHarmIntent } from '../../../api/chat/safety'

describe('expressesSelfHarmIntent', () => {
  test.each([
    'I want to kill myself',
    "I'm going to kill myself tonight",
    'i keep thinking about killing myself',
    'Sometimes I think about ending my life',
    'I just want to end it all',
    'I feel suicidal',
    "I've been thinking about suicide a lot",
    'I want to die',
    'honestly I wish I was dead',
    "I'd be better off dead",
    "I don’t want to live anymore",
    "There's no reason to live",
    'I want to hurt myself again',
    "I've been cutting myself",
    'the urge to self-harm is back',
  ])('English: "%s"', (text) => {
    expect(expressesSelfHarmIntent(text)).toBe(true)
  })

  test.each([
    '我想死',
    '好想死，真的撐不下去',
    '我不想活了',
    '我真的活不下去了',
    '想自杀',
    '我打算自殺',
    '最近一直有自殺的念頭',
    '我想結束自己的生命',
    '我想傷害自己',
    '死了算了',
    '我想去死',
    '活著沒有意義',
  ])('Chinese: "%s"', (text) => {
    expect(expressesSelfHarmIntent(text)).toBe(true)
  })

  test.each([
    'this exam is killing me',
    'My boss is going to kill me if I miss the deadline',
    "I'm killing myself at work these days",
    "I'm dying to see the new movie",
    "I'm going to die of embarrassment",
    'I hurt myself playing basketball yesterday',
    'We watched a documentary about suicide prevention',
    'I could kill for a coffee right now',
    '想死你了！',
    '想死我了，終於見面了',
    '笑死我了',
    '今天累死了',
    '熱死了',
    '我不想死，我想好好活著',
    '她在自殺防治中心當志工',
    '我的理想是成為更勇敢的人',
  ])('not a crisis: "%s"', (text) => {
    expect(expressesSelfHarmIntent(text)).toBe(false)
  })
})
