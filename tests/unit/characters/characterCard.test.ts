import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import extractChunks from 'png-chunks-extract'
import encodeChunks from 'png-chunks-encode'
import textChunk from 'png-chunk-text'
import { CARD_MAX_BYTES, EXTENSION, buildCardV3, cardPng, cardText, parseCard, type CardCharacter } from '../../../api/characters/characterCard'
import { HttpError } from '../../../api/http/errors'

const enc = new TextEncoder()
const json = (value: unknown) => enc.encode(JSON.stringify(value))
const SERAPHINA = readFileSync(new URL('../../fixtures/cards/seraphina-v3.json', import.meta.url))

const ours: CardCharacter = {
  name: '沉穩的自己',
  description: 'A calm organiser who still has time for friends',
  personality: 'I am the version of you who plans the trip and still laughs on the way.',
  systemPrompt: 'You are 沉穩的自己.\nSpeak warmly.',
  firstMessage: '早安！今天想聊什麼？',
  people: [
    { name: 'Marcus Lee', types: ['CLOSE_FRIEND'], closeness: 5 },
    { name: "Sam O'Neill", types: ['COLLEAGUE', 'MENTOR_ADVISOR'], closeness: 3 },
  ],
  lore: [],
}

/** A PNG with the given text chunks (keyword → text), built by hand as another front-end would. */
function pngWith(texts: Record<string, string>): Uint8Array {
  const base = extractChunks(cardPng(buildCardV3(ours))).filter((c) => c.name !== 'tEXt')
  const end = base.findIndex((c) => c.name === 'IEND')
  base.splice(end, 0, ...Object.entries(texts).map(([k, v]) => textChunk.encode(k, v)))
  return encodeChunks(base)
}
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8').toString('base64')

function refusal(bytes: Uint8Array): string {
  try {
    parseCard(bytes)
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError)
    expect((e as HttpError).statusCode).toBe(400)
    return (e as HttpError).message
  }
  throw new Error('the card was accepted')
}

describe('building a V3 card', () => {
  test('follows chara_card_v3: spec, version, the required data fields and people as lorebook entries', () => {
    const card = buildCardV3(ours, new Date('2026-11-25T00:00:00Z'))
    expect(card.spec).toBe('chara_card_v3')
    expect(card.spec_version).toBe('3.0')
    for (const field of ['name', 'description', 'tags', 'creator', 'character_version', 'mes_example', 'extensions', 'system_prompt',
      'post_history_instructions', 'first_mes', 'alternate_greetings', 'personality', 'scenario', 'creator_notes', 'group_only_greetings'])
      expect(card.data, field).toHaveProperty(field)
    expect(card.data.creation_date).toBe(1795564800)
    const entries = card.data.character_book!.entries
    expect(entries.map((e: any) => e.keys)).toEqual([['Marcus Lee'], ["Sam O'Neill"]])
    for (const e of entries as any[]) {
      expect(e).toMatchObject({ enabled: true, use_regex: false, content: expect.stringContaining(e.keys[0]) })
      expect(typeof e.insertion_order).toBe('number')
    }
    expect((entries[1] as any).extensions[EXTENSION]).toEqual({ types: ['COLLEAGUE', 'MENTOR_ADVISOR'], closeness: 3 })
  })

  test('the PNG carries the card in ccv3 (V3) and chara (V2) tEXt chunks, base64 of UTF-8 JSON', () => {
    const png = cardPng(buildCardV3(ours))
    const texts = Object.fromEntries(extractChunks(png).filter((c) => c.name === 'tEXt').map((c) => {
      const { keyword, text } = textChunk.decode(c.data)
      return [keyword, JSON.parse(Buffer.from(text, 'base64').toString('utf8'))]
    }))
    expect(texts.ccv3.spec).toBe('chara_card_v3')
    expect(texts.chara.spec).toBe('chara_card_v2')
    expect(texts.ccv3.data.name).toBe('沉穩的自己')
    expect(texts.chara.data.first_mes).toBe(ours.firstMessage)
  })
})

describe('round trip', () => {
  test.each(['json', 'png'])('export as %s → import gives the same fields', (format) => {
    const card = buildCardV3(ours)
    const bytes = format === 'png' ? cardPng(card) : json(card)
    expect(parseCard(bytes)).toEqual(ours)
  })
})

describe('cards from elsewhere', () => {
  test('a hand-written V3 card: texts kept, world entries kept as lore, not as people', () => {
    const card = parseCard(SERAPHINA)
    expect(card).toMatchObject({
      name: 'Seraphina',
      description: expect.stringContaining('forest guardian'),
      personality: expect.stringContaining('Kind, patient'),
      systemPrompt: '',
      firstMessage: expect.stringContaining('You\'re safe now'),
      people: [],
    })
    expect(card.lore.map((e) => e.keys)).toEqual([['Eldergrove', 'forest'], ['shadow wolves']])
  })

  test('a V2 card in a PNG chara chunk only, with a byte-order mark and Windows line breaks in JSON', () => {
    const v2 = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Aria', description: 'A bard.\r\nSings.', personality: '', scenario: '', first_mes: 'Hi!', mes_example: '' } }
    expect(parseCard(pngWith({ chara: b64(v2) }))).toMatchObject({ name: 'Aria', description: 'A bard.\r\nSings.', firstMessage: 'Hi!' })
    expect(parseCard(enc.encode('\uFEFF' + JSON.stringify(v2)))).toMatchObject({ name: 'Aria' })
  })

  test('when both chunks are there the V3 one wins, whatever the order', () => {
    const v2 = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Old' } }
    const v3 = { spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'New' } }
    expect(parseCard(pngWith({ chara: b64(v2), ccv3: b64(v3) })).name).toBe('New')
    expect(parseCard(pngWith({ ccv3: b64(v3), chara: b64(v2) })).name).toBe('New')
  })
})

describe('malformed and oversized cards are refused with a message naming the problem', () => {
  const v3 = (data: unknown) => json({ spec: 'chara_card_v3', spec_version: '3.0', data })
  const cases: [string, Uint8Array, RegExp][] = [
    ['empty file', new Uint8Array(0), /neither a character card JSON nor a PNG/],
    ['plain text', enc.encode('hello there'), /neither a character card JSON nor a PNG/],
    ['truncated JSON', enc.encode('{"spec":"chara_card_v3","data":{'), /not valid JSON/],
    ['JSON array', enc.encode('[1,2]'), /neither a character card JSON nor a PNG/],
    ['V1 card (no spec)', json({ name: 'A', description: 'b' }), /spec must be chara_card_v2 or chara_card_v3/],
    ['unknown spec', json({ spec: 'chara_card_v4', data: { name: 'A' } }), /spec must be/],
    ['no data', json({ spec: 'chara_card_v3' }), /no data object/],
    ['data is a string', json({ spec: 'chara_card_v2', data: 'x' }), /no data object/],
    ['missing name', v3({ description: 'x' }), /data\.name is required/],
    ['blank name', v3({ name: '   ' }), /data\.name is required/],
    ['name not a string', v3({ name: 42 }), /data\.name must be a string/],
    ['name too long', v3({ name: 'x'.repeat(101) }), /data\.name must be at most 100/],
    ['description too long', v3({ name: 'A', description: 'x'.repeat(50_001) }), /data\.description must be at most 50000/],
    ['first_mes an object', v3({ name: 'A', first_mes: { text: 'hi' } }), /data\.first_mes must be a string/],
    ['lorebook not a list', v3({ name: 'A', character_book: { entries: {} } }), /entries must be a list/],
    ['lorebook entry keys not strings', v3({ name: 'A', character_book: { entries: [{ keys: [1], content: 'x' }] } }), /keys must be a list of strings/],
    ['lorebook entry without content', v3({ name: 'A', character_book: { entries: [{ keys: ['a'] }] } }), /content must be a string/],
    ['too many lorebook entries', v3({ name: 'A', character_book: { entries: Array.from({ length: 201 }, () => ({ keys: ['a'], content: 'b' })) } }), /at most 200 entries/],
    ['person with an unknown type', v3({ name: 'A', character_book: { entries: [{ keys: ['Bo'], content: 'x', extensions: { [EXTENSION]: { types: ['ENEMY'], closeness: 3 } } }] } }), /no known relationship type/],
    ['person with closeness 9', v3({ name: 'A', character_book: { entries: [{ keys: ['Bo'], content: 'x', extensions: { [EXTENSION]: { types: ['COLLEAGUE'], closeness: 9 } } }] } }), /closeness must be a whole number from 1 to 5/],
    ['the same person twice', v3({ name: 'A', character_book: { entries: [0, 1].map(() => ({ keys: ['Bo'], content: 'x', extensions: { [EXTENSION]: { types: ['COLLEAGUE'], closeness: 2 } } })) } }), /lists Bo twice/],
    ['PNG without a card', pngWith({ Comment: 'just a picture' }), /no character card \(no ccv3 or chara text chunk\)/],
    ['PNG with a non-base64 card', pngWith({ ccv3: '{not base64}' }), /not base64/],
    ['PNG with base64 of junk', pngWith({ chara: b64('not json at all') }), /not valid JSON/],
    ['damaged PNG', cardPng(buildCardV3(ours)).slice(0, 60), /damaged/],
    ['oversized', new Uint8Array(CARD_MAX_BYTES + 1).fill(32), /larger than 2 MB/],
  ]
  test.each(cases)('%s', (_label, bytes, message) => {
    expect(refusal(bytes)).toMatch(message)
  })

  test('control characters are dropped from texts; tabs and line breaks stay', () => {
    expect(parseCard(json({ spec: 'chara_card_v2', data: { name: 'A\u0000B', description: 'x\u0007\ty\nz' } }))).toMatchObject({ name: 'AB', description: 'x\ty\nz' })
  })

  test('cardText reads the ccv3 keyword case-insensitively', () => {
    expect(JSON.parse(cardText(pngWith({ CCV3: b64({ spec: 'chara_card_v3', data: { name: 'Up' } }) }))).data.name).toBe('Up')
  })
})
