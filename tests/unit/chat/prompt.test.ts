import { describe, expect, test } from 'vitest'
import { estimateTokens, helloMessages, recentHistory, replyMessages, type HistoryMessage, type Scene } from '../../../api/chat/prompt'
import { splitPersonContext } from '../../../api/llm/personContext'

const scene: Scene = {
  characterName: 'Mei',
  characterPrompt: 'You are Mei, brave and kind.',
  currentDateTime: 'Sunday 2026-11-22 10:30:00',
  language: 'zh-CN',
}

describe('recentHistory', () => {
  const turn = (i: number): HistoryMessage => ({ role: i % 2 ? 'ASSISTANT' : 'USER', text: `${'word '.repeat(20)}${i}` })

  test('takes the newest messages that fit, returned oldest first', () => {
    const newestFirst = [5, 4, 3, 2, 1, 0].map(turn)
    const each = estimateTokens(turn(0).text)
    expect(recentHistory(newestFirst, each * 3).map((m) => m.text)).toEqual([3, 4, 5].map((i) => turn(i).text))
    expect(recentHistory(newestFirst, each * 100)).toHaveLength(6)
  })

  test('stops at the first message that does not fit, so the window stays contiguous', () => {
    const newestFirst: HistoryMessage[] = [
      { role: 'USER', text: 'short' },
      { role: 'ASSISTANT', text: 'x'.repeat(4000) },
      { role: 'USER', text: 'also short' },
    ]
    expect(recentHistory(newestFirst, 100)).toEqual([{ role: 'USER', text: 'short' }])
  })

  test('counts a Chinese character as about one token', () => {
    expect(estimateTokens('你好嗎')).toBe(3)
    expect(estimateTokens('abcdefgh')).toBe(2)
  })
})

describe('replyMessages', () => {
  test('system prompt, then history, then the new message with its images', () => {
    const image = { mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) }
    const messages = replyMessages({ ...scene, geoLocation: { latitude: 25.0339, longitude: 121.5641 } }, [{ role: 'USER', text: 'earlier' }, { role: 'ASSISTANT', text: 'answer' }], 'now', [image])
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    const system = messages[0].content
    expect(system).toContain('You are Mei, brave and kind.')
    expect(system).toContain('Sunday 2026-11-22 10:30:00')
    expect(system).toContain('latitude 25.034, longitude 121.564')
    expect(system).toContain('Always answer in Simplified Chinese')
    // The offline provider reads the language back out of the prompt.
    expect(splitPersonContext(system).context.language).toBe('zh-CN')
    expect(messages[3]).toEqual({ role: 'user', content: 'now', images: [image] })
  })

  test('a character without a prompt still gets a persona', () => {
    const [system] = helloMessages({ ...scene, characterPrompt: null })
    expect(system.content).toContain('You are Mei, the ideal self of the person')
    expect(system.content).toContain('Greet them')
  })
})
