// Character Card V3 (`chara_card_v3`, the format SillyTavern and other front-ends read) and V2 (`chara_card_v2`):
// building a card from a character, and reading one — JSON, or PNG with the card base64-encoded in a tEXt chunk
// (`ccv3` for V3, `chara` for V2; V3 wins when both are there). Pure functions; every check names what is wrong.
import extractChunks from 'png-chunks-extract'
import encodeChunks from 'png-chunks-encode'
import textChunk from 'png-chunk-text'
import { zlibSync } from 'fflate'
import { badRequest } from '../http/errors'
import { RELATIONSHIP_TYPES } from '../content/definitions'

/** A card file larger than this is refused before it is parsed. */
export const CARD_MAX_BYTES = 2 * 1024 * 1024
export const CARD_NAME_MAX = 100
export const CARD_TEXT_MAX = 50_000
export const LOREBOOK_MAX_ENTRIES = 200
/** Our lorebook entries carry the relationship under this extension key; other front-ends keep it untouched. */
export const EXTENSION = 'ideal_self'

export interface CardPerson {
  name: string
  types: string[]
  closeness: number
}

/** A lorebook entry that is not one of the person's people, kept as the card had it. */
export type LoreEntry = Record<string, unknown>

/** What this product keeps of a card. */
export interface CardCharacter {
  name: string
  /** The ideal-self description (card `description`). */
  description: string
  /** The persona the chat speaks as: the character's "who I am" portrait (card `personality`). */
  personality: string
  /** The character's whole system prompt (card `system_prompt`). */
  systemPrompt: string
  /** The opening message (card `first_mes`). */
  firstMessage: string
  /** The confirmed people of the relationship graph (lorebook entries carrying our extension). */
  people: CardPerson[]
  /** Every other lorebook entry. */
  lore: LoreEntry[]
}

export function buildCardV3(c: CardCharacter, now = new Date()) {
  const seconds = Math.floor(now.getTime() / 1000)
  const entries = [
    ...c.people.map((p, i) => ({
      keys: [p.name],
      content: `${p.name}: ${p.types.map((t) => t.toLowerCase().replace(/_/g, ' ')).join(', ')}; closeness ${p.closeness} of 5.`,
      extensions: { [EXTENSION]: { types: p.types, closeness: p.closeness } },
      enabled: true,
      insertion_order: i,
      case_sensitive: false,
      use_regex: false,
      constant: false,
      name: p.name,
      id: i,
    })),
    ...c.lore,
  ]
  return {
    spec: 'chara_card_v3' as const,
    spec_version: '3.0' as const,
    data: {
      name: c.name,
      description: c.description,
      personality: c.personality,
      scenario: '',
      first_mes: c.firstMessage,
      mes_example: '',
      creator_notes: 'Exported from Ideal Self.',
      system_prompt: c.systemPrompt,
      post_history_instructions: '',
      alternate_greetings: [] as string[],
      group_only_greetings: [] as string[],
      tags: ['ideal-self'],
      creator: '',
      character_version: '1.0',
      extensions: {},
      creation_date: seconds,
      modification_date: seconds,
      ...(entries.length ? { character_book: { name: `${c.name}`, extensions: {}, entries } } : {}),
    },
  }
}


/** A plain square in the product's colour, the picture a card PNG carries when the character has none. */
function portraitPng(size = 256): Uint8Array {
  const row = new Uint8Array(1 + size * 3)
  for (let x = 0; x < size; x++) row.set([0x6b, 0x5b, 0xd6], 1 + x * 3)
  const raw = new Uint8Array(row.length * size)
  for (let y = 0; y < size; y++) raw.set(row, y * row.length)
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, size)
  view.setUint32(4, size)
  header.set([8, 2, 0, 0, 0], 8)
  return encodeChunks([
    { name: 'IHDR', data: header },
    { name: 'IDAT', data: zlibSync(raw) },
    { name: 'IEND', data: new Uint8Array(0) },
  ])
}

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64')

/** The card in a PNG: `ccv3` for V3 readers and `chara` (the same card as V2) for older ones. */
export function cardPng(card: ReturnType<typeof buildCardV3>): Uint8Array {
  const chunks = extractChunks(portraitPng())
  const v2 = { spec: 'chara_card_v2', spec_version: '2.0', data: { ...card.data } }
  const end = chunks.findIndex((c: { name: string }) => c.name === 'IEND')
  chunks.splice(end, 0, textChunk.encode('chara', base64Json(v2)), textChunk.encode('ccv3', base64Json(card)))
  return new Uint8Array(encodeChunks(chunks))
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const isPng = (b: Uint8Array) => b.length >= 8 && PNG_MAGIC.every((x, i) => b[i] === x)

/** The card JSON text a file holds: the file itself, or the PNG's ccv3 (else chara) chunk decoded. */
export function cardText(bytes: Uint8Array): string {
  if (bytes.length > CARD_MAX_BYTES) throw badRequest(`The card is larger than ${CARD_MAX_BYTES / 1024 / 1024} MB`, 'CardTooLarge')
  if (!isPng(bytes)) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '')
    if (!text.trim().startsWith('{')) throw badRequest('The file is neither a character card JSON nor a PNG', 'InvalidCard')
    return text
  }
  let chunks: { name: string; data: Uint8Array }[]
  try {
    chunks = extractChunks(bytes)
  } catch {
    throw badRequest('The PNG is damaged and cannot be read', 'InvalidCard')
  }
  const texts = new Map<string, string>()
  for (const chunk of chunks) {
    if (chunk.name !== 'tEXt') continue
    try {
      const { keyword, text } = textChunk.decode(chunk.data)
      texts.set(keyword.toLowerCase(), text)
    } catch {
      // A malformed text chunk that is not the card is not our concern.
    }
  }
  const encoded = texts.get('ccv3') ?? texts.get('chara')
  if (!encoded) throw badRequest('The PNG holds no character card (no ccv3 or chara text chunk)', 'InvalidCard')
  if (!/^[A-Za-z0-9+/=\s]+$/.test(encoded)) throw badRequest('The card in the PNG is not base64', 'InvalidCard')
  return Buffer.from(encoded, 'base64').toString('utf8')
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function text(data: Record<string, unknown>, field: string, max: number, required = false): string {
  const value = data[field]
  if (value === undefined || value === null) {
    if (required) throw badRequest(`data.${field} is required`, 'InvalidCard')
    return ''
  }
  if (typeof value !== 'string') throw badRequest(`data.${field} must be a string`, 'InvalidCard')
  if (value.length > max) throw badRequest(`data.${field} must be at most ${max} characters`, 'InvalidCard')
  // Control characters other than tab and line breaks have no place in a character's texts.
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
}

const TYPES = RELATIONSHIP_TYPES as readonly string[]

function person(entry: Record<string, unknown>, index: number): CardPerson | null {
  const ours = isObject(entry.extensions) ? entry.extensions[EXTENSION] : undefined
  if (!isObject(ours)) return null
  const keys = Array.isArray(entry.keys) ? entry.keys : []
  const name = (typeof entry.name === 'string' && entry.name.trim()) || (typeof keys[0] === 'string' && keys[0].trim()) || ''
  if (!name || name.length > 80) throw badRequest(`character_book entry ${index + 1} needs a name of at most 80 characters`, 'InvalidCard')
  const types = Array.isArray(ours.types) ? ours.types.filter((t): t is string => typeof t === 'string' && TYPES.includes(t)) : []
  const closeness = ours.closeness
  if (!types.length) throw badRequest(`character_book entry ${index + 1} (${name}) has no known relationship type`, 'InvalidCard')
  if (typeof closeness !== 'number' || !Number.isInteger(closeness) || closeness < 1 || closeness > 5)
    throw badRequest(`character_book entry ${index + 1} (${name}): closeness must be a whole number from 1 to 5`, 'InvalidCard')
  return { name, types: [...new Set(types)], closeness }
}

/** Reads and checks a card (V2 or V3); a 400 names the first problem. */
export function parseCard(bytes: Uint8Array): CardCharacter {
  let card: unknown
  try {
    card = JSON.parse(cardText(bytes))
  } catch (error) {
    if (error instanceof SyntaxError) throw badRequest('The card is not valid JSON', 'InvalidCard')
    throw error
  }
  if (!isObject(card)) throw badRequest('The card must be a JSON object', 'InvalidCard')
  if (card.spec !== 'chara_card_v3' && card.spec !== 'chara_card_v2')
    throw badRequest('Unsupported card: spec must be chara_card_v2 or chara_card_v3', 'InvalidCard')
  const data = card.data
  if (!isObject(data)) throw badRequest('The card has no data object', 'InvalidCard')
  const name = text(data, 'name', CARD_NAME_MAX, true).trim()
  if (!name) throw badRequest('data.name is required', 'InvalidCard')

  const people: CardPerson[] = []
  const lore: LoreEntry[] = []
  const book = data.character_book
  if (book !== undefined && book !== null) {
    if (!isObject(book) || !Array.isArray(book.entries)) throw badRequest('data.character_book.entries must be a list', 'InvalidCard')
    if (book.entries.length > LOREBOOK_MAX_ENTRIES)
      throw badRequest(`data.character_book may hold at most ${LOREBOOK_MAX_ENTRIES} entries`, 'InvalidCard')
    book.entries.forEach((entry, i) => {
      if (!isObject(entry)) throw badRequest(`character_book entry ${i + 1} must be an object`, 'InvalidCard')
      if (!Array.isArray(entry.keys) || entry.keys.some((k) => typeof k !== 'string'))
        throw badRequest(`character_book entry ${i + 1}: keys must be a list of strings`, 'InvalidCard')
      if (typeof entry.content !== 'string' || entry.content.length > CARD_TEXT_MAX)
        throw badRequest(`character_book entry ${i + 1}: content must be a string of at most ${CARD_TEXT_MAX} characters`, 'InvalidCard')
      const p = person(entry, i)
      if (p) {
        if (people.some((q) => q.name.toLowerCase() === p.name.toLowerCase()))
          throw badRequest(`character_book lists ${p.name} twice`, 'InvalidCard')
        people.push(p)
      } else lore.push(entry)
    })
  }
  return {
    name,
    description: text(data, 'description', CARD_TEXT_MAX),
    personality: text(data, 'personality', CARD_TEXT_MAX),
    systemPrompt: text(data, 'system_prompt', CARD_TEXT_MAX),
    firstMessage: text(data, 'first_mes', CARD_TEXT_MAX),
    people,
    lore,
  }
}
