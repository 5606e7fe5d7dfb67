import { describe, expect, test } from 'vitest'
import { findDefinition, type ContentDefinition } from '../../../api/content/definitions'
import {
  defaultValues,
  localeProblem,
  mappingProblem,
  resolveRow,
  toContentRow,
  translationProblem,
  valuesProblem,
  type ContentRecord,
} from '../../../api/content/values'

const def = (slug: string) => findDefinition(slug) as ContentDefinition
const plans = def('subscription-plans')
const music = def('background-music')
const hints = def('role-hints')

const record = (over: Partial<ContentRecord>): ContentRecord => ({
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'role-hints',
  field_values: {},
  locale: {},
  created_at: new Date('2030-01-01T00:00:00Z'),
  updated_at: new Date('2030-01-01T00:00:00Z'),
  ...over,
})

const plan = {
  planId: 'p',
  name: 'Plan',
  description: 'A plan',
  priceUsd: 1,
  twdAmount: 30,
  period: 'month',
  messageAllowance: 0,
  unlimitedMessages: true,
}

describe('new-row defaults (spec §5)', () => {
  test('string empty, number min or 0, boolean false, select null, no mapped keys', () => {
    expect(defaultValues(plans).values).toEqual({
      planId: '',
      name: '',
      description: '',
      priceUsd: 0,
      twdAmount: 0,
      period: null,
      messageAllowance: 0,
      unlimitedMessages: false,
    })
    expect(defaultValues(music)).toEqual({ values: { title: '', url: '', volume: 0 }, mappings: { screens: [] } })
    expect(defaultValues(def('relationship-types')).values.colour).toBe('')
  })
})

describe('field values', () => {
  test('numbers outside min/max give the exact editor texts', () => {
    expect(valuesProblem(music, { volume: 101 }, 'update')).toBe('max value 100(change not saved)')
    expect(valuesProblem(music, { volume: -1 }, 'update')).toBe('min value 0(change not saved)')
    expect(valuesProblem(music, { volume: 100 }, 'update')).toBeNull()
    expect(valuesProblem(music, { volume: '50' }, 'update')).toBe('Volume (%) must be a number')
  })

  test('strings are limited in characters, not bytes', () => {
    expect(valuesProblem(hints, { text: '好'.repeat(200) }, 'update')).toBeNull()
    expect(valuesProblem(hints, { text: '好'.repeat(201) }, 'update')).toBe('Hint must be at most 200 characters')
    expect(valuesProblem(hints, { text: 3 }, 'update')).toBe('Hint must be text')
  })

  test('select keys must be among the options; booleans must be booleans', () => {
    expect(valuesProblem(plans, { period: 'fortnight' }, 'update')).toBe('Period must be one of day, week, month, year')
    expect(valuesProblem(plans, { period: 'year' }, 'update')).toBeNull()
    expect(valuesProblem(plans, { unlimitedMessages: 'yes' }, 'update')).toBe('Unlimited messages must be true or false')
  })

  test('unknown fields, mapping fields and empty changes are refused', () => {
    expect(valuesProblem(music, { tempo: 3 }, 'update')).toBe('Unknown field tempo')
    expect(valuesProblem(music, { screens: ['chat'] }, 'update')).toMatch(/mappings\/screens/)
    expect(valuesProblem(music, {}, 'update')).toBe('No field to change')
  })

  test('a new row needs every field, none empty; zero and false count as filled', () => {
    expect(valuesProblem(plans, plan, 'create')).toBeNull()
    expect(valuesProblem(plans, { ...plan, name: '  ' }, 'create')).toBe('Name is required')
    expect(valuesProblem(plans, { ...plan, period: null }, 'create')).toBe('Period is required')
    const { twdAmount, ...missing } = plan
    expect(valuesProblem(plans, missing, 'create')).toBe('Amount (TWD) is required')
    expect(valuesProblem(plans, { ...plan, priceUsd: 0, unlimitedMessages: false }, 'create')).toBeNull()
  })
})

describe('mappings and translations', () => {
  test('mapping keys must be allowed keys of a mapping-many field', () => {
    expect(mappingProblem(music, 'screens', ['chat', 'onboarding'])).toBeNull()
    expect(mappingProblem(music, 'screens', [])).toBeNull()
    expect(mappingProblem(music, 'screens', ['chat', 'lobby'])).toBe('lobby is not one of onboarding, select-character, chat, relations, upload-chat-history')
    expect(mappingProblem(music, 'volume', ['chat'])).toBe('volume is not a mapping field of background-music')
    expect(mappingProblem(music, 'screens', 'chat')).toBe('Screens must be a list of keys')
  })

  test('only locale-required fields translate, within their length', () => {
    expect(translationProblem(plans, { name: '進階' })).toBeNull()
    expect(translationProblem(plans, { planId: 'x' })).toBe('planId is not a translated field of subscription-plans')
    expect(translationProblem(plans, { name: 'x'.repeat(61) })).toBe('Name must be at most 60 characters')
    expect(translationProblem(def('support'), { email: 'x' })).toBe('Support has no translations')
    expect(localeProblem(plans, { FRFR: { name: 'x' } })).toBe('FRFR is not a language (ENUS, ZHTW, ZHCN)')
    expect(localeProblem(plans, { ZHTW: 'x' })).toBe('locale.ZHTW must be an object of texts')
  })
})

describe('row shapes', () => {
  const row = record({
    field_values: { text: 'Stored', extra: 1 },
    locale: { ENUS: { text: 'English' }, ZHTW: { text: '' }, ZHCN: { text: '简体' } },
  })

  test('the editor row splits values and mappings and flags untranslated languages', () => {
    expect(toContentRow(hints, row)).toEqual({
      id: row.id,
      values: { text: 'Stored' },
      mappings: {},
      locale: { ENUS: { text: 'English' }, ZHTW: { text: '' }, ZHCN: { text: '简体' } },
      translate: { ENUS: true, ZHTW: false, ZHCN: true },
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    })
    const m = toContentRow(music, record({ slug: 'background-music', field_values: { title: 't', screens: ['chat'] } }))
    expect(m.values).toEqual({ title: 't', url: null, volume: null })
    expect(m.mappings).toEqual({ screens: ['chat'] })
  })

  test('the app row is flat and falls back from the language to English to the stored value', () => {
    expect(resolveRow(hints, row, 'ZHCN')).toEqual({ id: row.id, text: '简体' })
    expect(resolveRow(hints, row, 'ZHTW')).toEqual({ id: row.id, text: 'English' })
    expect(resolveRow(hints, record({ field_values: { text: 'Stored' } }), 'ZHTW')).toEqual({ id: row.id, text: 'Stored' })
  })
})
