import { describe, expect, test } from 'vitest'
import { DEFINITIONS, LANGS, RELATIONSHIP_TYPES, findDefinition } from '../../../api/content/definitions'
import { seedRows } from '../../../api/content/seedRows'
import { localeProblem, valuesProblem } from '../../../api/content/values'
import { withMissingKeys } from '../../../api/content/localeDocs'
import { PLAN_IDS } from '../../../api/payments/plans'

const rows = seedRows({ messageLimit: 100, period: 'week' })

// WCAG relative luminance and contrast ratio.
function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

describe('built-in content', () => {
  test('every seeded row passes the rules an admin-created row must pass', () => {
    for (const def of DEFINITIONS) {
      for (const row of rows[def.slug]) {
        const values = { ...row.values, ...row.texts?.ENUS }
        const scalars = Object.fromEntries(Object.entries(values).filter(([k]) => !Array.isArray(values[k])))
        // Track URLs are left for an admin to fill (no music ships), so only those may be empty.
        const filled = def.slug === 'background-music' ? { ...scalars, url: 'https://example.com/a.mp3' } : scalars
        expect(valuesProblem(def, filled, 'create'), `${def.slug}/${row.key}`).toBeNull()
        expect(localeProblem(def, row.texts ?? {}), `${def.slug}/${row.key}`).toBeNull()
      }
    }
  })

  test('translated contents have every text in all three languages, and they differ from English', () => {
    for (const def of DEFINITIONS.filter((d) => d.hasLocale)) {
      for (const row of rows[def.slug]) {
        for (const lang of LANGS) for (const f of def.localeRequiredFields) expect(row.texts?.[lang][f]?.trim()).toBeTruthy()
        for (const f of def.localeRequiredFields) expect(row.texts!.ZHTW[f]).not.toBe(row.texts!.ENUS[f])
      }
    }
  })

  test('20 role hints and the 16 relationship types of the spec', () => {
    expect(rows['role-hints']).toHaveLength(20)
    expect(new Set(rows['role-hints'].map((r) => r.texts!.ENUS.text)).size).toBe(20)
    expect(rows['relationship-types'].map((r) => r.values!.type)).toEqual([...RELATIONSHIP_TYPES])
  })

  test('relationship colours are distinct and readable on the dark theme', () => {
    const colours = rows['relationship-types'].map((r) => String(r.values!.colour))
    expect(new Set(colours).size).toBe(16)
    for (const c of colours) {
      expect(c).toMatch(/^#[0-9A-F]{6}$/)
      expect(contrast(c, '#121212')).toBeGreaterThanOrEqual(4.5)
    }
  })

  test('plans: the free allowance from configuration and the premium ids and amounts of billing', () => {
    const [free, ...premium] = rows['subscription-plans']
    expect(free.values).toMatchObject({ planId: 'free', messageAllowance: 100, period: 'week', unlimitedMessages: false })
    expect(premium.map((p) => p.values!.planId)).toEqual([...PLAN_IDS])
    expect(premium.map((p) => [p.values!.priceUsd, p.values!.twdAmount])).toEqual([[29, 890], [300, 9200]])
    const daily = seedRows({ messageLimit: 20, period: 'day' })['subscription-plans'][0]
    expect(daily.values).toMatchObject({ messageAllowance: 20, period: 'day' })
    expect(daily.texts!.ENUS.description).toBe('20 messages with your Ideal Self every day.')
  })

  test('crisis resources name the Taiwan and mainland lines in every language', () => {
    const byRegion = Object.fromEntries(rows['crisis-resources'].map((r) => [r.values!.region, r.texts!]))
    for (const lang of LANGS) {
      for (const n of ['1925', '1995', '1980']) expect(byRegion.TW[lang].text).toContain(n)
      for (const n of ['12356', '400-161-9995']) expect(byRegion.CN[lang].text).toContain(n)
      expect(byRegion.INTL[lang].text).toContain('findahelpline.com')
    }
  })

  test('background music maps only known screens', () => {
    const screens = findDefinition('background-music')!.editableFields.find((f) => f.fieldName === 'screens')!.selectOptions!.map((o) => o.key)
    for (const row of rows['background-music']) for (const s of row.values!.screens as string[]) expect(screens).toContain(s)
  })
})

describe('locale docs seed', () => {
  test('adds keys the file gained at any depth and never replaces a saved text', () => {
    const saved = { login: { title: 'Edited' }, extra: 'kept' }
    const file = { login: { title: 'Original', subtitle: 'New' }, settings: { title: 'Settings' } }
    expect(withMissingKeys(saved, file)).toEqual({
      login: { title: 'Edited', subtitle: 'New' },
      extra: 'kept',
      settings: { title: 'Settings' },
    })
  })
})
