import { describe, expect, test } from 'vitest'
import type { ChatMessage } from '../../../api/chat-import/types'
import { STYLE_WINDOW, describeStyle, measureSpeakingStyle, promptStats } from '../../../api/chat-import/analysis/speakingStyle'
import { languageMix } from '../../../api/chat-import/analysis/languageMix'
import { topPhrases } from '../../../api/chat-import/analysis/phrases'

/** A chat from [minute, author, text] rows on one day. */
function chat(rows: [number, string, string][]): ChatMessage[] {
  return rows.map(([minute, author, text]) => ({
    date: `2024-03-08T${String(9 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`,
    author,
    text,
    kind: author ? 'message' : 'system',
  }))
}

describe('language mix', () => {
  test('shares of letters by script; emoji, digits and punctuation do not count', () => {
    expect(languageMix(['我們這個週末去吧', 'ok see you'])).toEqual({
      traditionalChinese: 0.5, simplifiedChinese: 0, japanese: 0, english: 0.5, other: 0,
    })
    expect(languageMix(['我们这个周末去吧'])).toMatchObject({ simplifiedChinese: 1, traditionalChinese: 0 })
    expect(languageMix(['今日は雨ですね'])).toMatchObject({ japanese: 1 })
    expect(languageMix(['안녕하세요'])).toMatchObject({ other: 1 })
    expect(languageMix(['😂😂 123 !!!'])).toEqual({ traditionalChinese: 0, simplifiedChinese: 0, japanese: 0, english: 0, other: 0 })
  })

  test('Chinese that does not tell its script is split like the rest of the person\'s Chinese', () => {
    // "好啊" and "吃飯了嗎" say nothing / Traditional; the person writes Traditional, so all of it counts as such.
    expect(languageMix(['好啊', '吃飯了嗎'])).toMatchObject({ traditionalChinese: 1, simplifiedChinese: 0 })
    const mixed = languageMix(['这个', '這個', '好啊好啊'])
    expect(mixed.traditionalChinese).toBeCloseTo(0.5, 2)
    expect(mixed.simplifiedChinese).toBeCloseTo(0.5, 2)
  })
})

describe('phrases', () => {
  test('phrases used in several messages, longest form kept, common words alone left out', () => {
    const phrases = topPhrases(['on my way!', 'ok on my way', 'On my way 🏃', 'the end', 'to the park', '好啊好啊', '好啊 明天見', '明天見～'])
    expect(phrases).toContainEqual({ text: 'on my way', count: 3 })
    expect(phrases).toContainEqual({ text: '好啊', count: 2 })
    expect(phrases).toContainEqual({ text: '明天見', count: 2 })
    // Inside "on my way" with the same count, and words too common to be a phrase.
    for (const part of ['my way', 'on my', 'way', 'the', '明天']) expect(phrases.map((p) => p.text)).not.toContain(part)
  })
})

describe('speaking style', () => {
  const me = 'Mei'
  const oneToOne = chat([
    [0, me, '早安！！今天好冷 🥶'],
    [1, me, '要不要一起吃午餐～'],
    [2, 'Jun', 'ok'],
    [3, me, '[貼圖]'],
    [30, me, '哈哈哈 好啊'],
    [31, '', 'Jun unsent a message.'],
    [50, 'Jun', 'see you'],
    [51, me, '好啊 等等見😂😂'],
    [52, me, '哈哈 我到了...'],
    [53, me, '☎ Call time 1:02'],
  ])
  const group = chat([
    [0, 'Ana', 'hi all'],
    [1, me, 'hello!! lol'],
    [2, 'Ben', 'hey'],
    [3, me, 'on my way 😂'],
  ])
  const profile = measureSpeakingStyle([oneToOne, group], me)

  test('in a file from the other app, the person\'s longer name counts as theirs', () => {
    const elsewhere = chat([[0, 'Leo', 'hi'], [1, 'Dana Whitfield', 'on my way'], [2, 'Leo', 'ok']])
    const both = measureSpeakingStyle([chat([[0, 'Dana', 'hello'], [1, 'Mia', 'hey']]), elsewhere], 'Dana')
    expect(both.messageCount).toBe(2)
  })

  test('counts the person\'s messages only, system lines never', () => {
    expect(profile.messageCount).toBe(9)
    expect(profile.measuredMessages).toBe(9)
    // A sticker and a call of nine messages.
    expect(profile.mediaShare).toBe(0.222)
  })

  test('lengths in characters over messages with text', () => {
    const lengths = ['早安！！今天好冷 🥶', '要不要一起吃午餐～', '哈哈哈 好啊', '好啊 等等見😂😂', '哈哈 我到了...', 'hello!! lol', 'on my way 😂']
      .map((t) => Array.from(t).length)
      .sort((a, b) => a - b)
    expect(profile.medianLength).toBe(lengths[3])
    expect(profile.averageLength).toBe(Math.round((lengths.reduce((a, b) => a + b) / lengths.length) * 10) / 10)
  })

  test('bursts: messages in a row until someone else writes or ten quiet minutes pass', () => {
    // [早安, 要不要] [貼圖] [哈哈哈] [好啊, 哈哈, ☎] [hello] [on my way]: 9 messages in 6 bursts.
    expect(profile.messagesPerBurst).toBe(1.5)
  })

  test('emoji: per message, share of messages, most used first', () => {
    expect(profile.emoji.top[0]).toEqual({ emoji: '😂', count: 3 })
    expect(profile.emoji.top.map((e) => e.emoji).sort()).toEqual(['😂', '🥶'].sort())
    expect(profile.emoji.perMessage).toBe(Math.round((4 / 7) * 100) / 100)
    expect(profile.emoji.messageShare).toBe(Math.round((3 / 7) * 1000) / 1000)
  })

  test('habits in at least two messages ("..." is in one only)', () => {
    expect(profile.habits).toEqual([
      { habit: '!!', share: Math.round((2 / 7) * 1000) / 1000 },
      { habit: '哈哈', share: Math.round((2 / 7) * 1000) / 1000 },
    ])
  })

  test('language mix of the person\'s letters', () => {
    expect(profile.languageMix.traditionalChinese).toBeGreaterThan(0.6)
    expect(profile.languageMix.english).toBeGreaterThan(0.2)
    expect(profile.languageMix.simplifiedChinese + profile.languageMix.japanese + profile.languageMix.other).toBe(0)
  })

  test('samples are the person\'s own typical messages, never media, calls or other people\'s lines', () => {
    expect(profile.samples.length).toBeGreaterThan(0)
    expect(profile.samples.length).toBeLessThanOrEqual(8)
    for (const s of profile.samples) {
      expect(['早安！！今天好冷 🥶', '要不要一起吃午餐～', '哈哈哈 好啊', '好啊 等等見😂😂', '哈哈 我到了...', 'hello!! lol', 'on my way 😂']).toContain(s)
    }
  })

  test('at most eight samples of typical length from a long history', () => {
    const long = chat(
      Array.from({ length: 300 }, (_, i): [number, string, string] => [i, me, i % 10 === 0 ? 'x'.repeat(400) : `message number ${i}`]),
    )
    const { samples } = measureSpeakingStyle([long], me)
    expect(samples).toHaveLength(8)
    expect(new Set(samples).size).toBe(8)
    for (const s of samples) expect(s).toMatch(/^message number \d+$/)
  })

  test('only the most recent messages are measured', () => {
    const many = chat(Array.from({ length: STYLE_WINDOW + 20 }, (_, i): [number, string, string] => [i % 500, me, i < 20 ? '這個' : 'ok']))
    const p = measureSpeakingStyle([many], me)
    expect(p.messageCount).toBe(STYLE_WINDOW + 20)
    expect(p.measuredMessages).toBe(STYLE_WINDOW)
  })

  test('the figures and a plain summary for the prompt', () => {
    const stats = promptStats(profile)
    expect(stats['messages measured']).toBe(9)
    expect(stats['language mix']).toMatch(/^Traditional Chinese \d+%, English \d+%$/)
    expect(stats.emoji).toContain('😂')
    expect(stats.habits).toContain('"哈哈"')
    const summary = describeStyle(profile)
    expect(summary).toContain('Traditional Chinese')
    expect(summary).toContain('😂')
    expect(describeStyle(measureSpeakingStyle([group], 'Nobody'))).toBe('No messages of theirs were found in the imported chats.')
  })
})
