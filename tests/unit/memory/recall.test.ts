import { describe, expect, test } from 'vitest'
import { mentions, rankMemories, withinBudget } from '../../../api/memory/recall'
import { anyTermQuery, hanBigrams, queryTerms, searchText } from '../../../api/memory/searchText'
import { isNearDuplicate } from '../../../api/memory/remember'

const NOW = Date.parse('2026-11-25T00:00:00Z')
const DAY = 86_400_000
const row = (id: string, o: { matches?: number; person?: string; kind?: string; daysAgo?: number; text?: string } = {}) => ({
  id,
  kind: (o.kind ?? 'fact') as any,
  text: o.text ?? `memory ${id}`,
  label: id,
  person_name: o.person ?? null,
  relation_node_id: null,
  updated_at: new Date(NOW - (o.daysAgo ?? 0) * DAY),
  matches: o.matches ?? 0,
})

describe('recall ordering', () => {
  test('more shared words first, then a named person, recency breaking ties; unrelated memories stay out', () => {
    const ranked = rankMemories(
      [
        row('one-word', { matches: 1 }),
        row('two-words', { matches: 2, daysAgo: 200 }),
        row('about-mei', { person: 'Mei', daysAgo: 3 }),
        row('old-match', { matches: 1, daysAgo: 90 }),
        row('unrelated', { daysAgo: 0 }),
        row('preference', { kind: 'preference', daysAgo: 1 }),
      ],
      new Set(['mei']),
      NOW,
    )
    expect(ranked.map((m) => m.id)).toEqual(['two-words', 'about-mei', 'one-word', 'preference', 'old-match'])
  })

  test('the token budget bounds what goes in, skipping what does not fit for what does', () => {
    const long = { ...rankMemories([row('long', { matches: 3, text: 'word '.repeat(400) })], new Set(), NOW)[0] }
    const short = rankMemories([row('a', { matches: 2 }), row('b', { matches: 1 })], new Set(), NOW)
    expect(withinBudget([long, ...short], 50).map((m) => m.id)).toEqual(['a', 'b'])
    expect(withinBudget(short, 4).map((m) => m.id)).toEqual([])
    const many = rankMemories(Array.from({ length: 40 }, (_, i) => row(`m${i}`, { matches: 1 })), new Set(), NOW)
    expect(withinBudget(many, 10_000)).toHaveLength(12)
  })

  test('a name is mentioned as a whole word, or anywhere in Chinese', () => {
    expect(mentions('Mei called me', 'Mei')).toBe(true)
    expect(mentions('Meiling called me', 'Mei')).toBe(false)
    expect(mentions('昨天小美打給我', '小美')).toBe(true)
    expect(mentions('i saw mei today.', 'Mei')).toBe(true)
    expect(mentions('I will try again tomorrow', 'Will')).toBe(false)
    expect(mentions('Will called me', 'Will')).toBe(true)
  })
})

describe('search terms', () => {
  test('Chinese runs become overlapping pairs; the rest stays for the english configuration', () => {
    expect(hanBigrams('台北馬拉松')).toEqual(['台北', '北馬', '馬拉', '拉松'])
    expect(searchText('四月跑台北馬拉松 with Mei')).toBe('四月 月跑 跑台 台北 北馬 馬拉 拉松 with Mei')
    expect(queryTerms('How should I plan my marathon training? 台北')).toEqual(['should', 'plan', 'marathon', 'training', '台北'])
    expect(anyTermQuery(['plan', '台北'])).toBe("'plan' | '台北'")
  })

  test('nothing a person types becomes query syntax', () => {
    for (const text of ["'); drop table memories; --", 'a & b | !c <-> d', "it's O'Brien's", '(((', '\\\\x00']) {
      for (const term of queryTerms(text)) expect(term).toMatch(/^[\p{L}\p{N}]+$/u)
    }
  })
})

describe('near-duplicates', () => {
  test('the same fact reworded or extended is a duplicate; a different fact is not', () => {
    expect(isNearDuplicate('Training for the Taipei marathon in April', 'training for the Taipei Marathon in April!')).toBe(true)
    expect(isNearDuplicate('Training for the Taipei marathon in April', 'Training for the Taipei marathon in April, aiming for under 4 hours')).toBe(true)
    expect(isNearDuplicate('妹妹小美三月開始上大學', '妹妹小美三月開始上大學了')).toBe(true)
    expect(isNearDuplicate('Training for the Taipei marathon in April', 'Sister Mei starts university in March')).toBe(false)
    expect(isNearDuplicate('Likes jazz', 'Likes hiking')).toBe(false)
  })
})

describe('with no model', () => {
  test('the offline reply brings back the memory recalled for the message', async () => {
    const { createOfflineProvider } = await import('../../../api/llm/offlineProvider')
    const { replyMessages } = await import('../../../api/chat/prompt')
    const scene = { characterName: 'Ideal Self', characterPrompt: null, currentDateTime: 'Sunday 2026-11-22 10:30:00', language: 'en-US' as const }
    const text = 'My legs are sore from marathon training today'
    const withMemory = await createOfflineProvider().complete(replyMessages({ ...scene, remembered: ["I'm training for the Taipei marathon in April."] }, [], text, []))
    expect(withMemory).toContain("I remember what you told me: I'm training for the Taipei marathon in April.")
    const without = await createOfflineProvider().complete(replyMessages(scene, [], text, []))
    expect(without).not.toContain('Taipei')
  })
})
