import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { cleanInput, cleanText } from '../../../api/http/inputText'

describe('cleanText', () => {
  test('drops C0 controls but tab and newline; CR and CR LF become newline', () => {
    expect(cleanText('a\u0000b', 'f')).toBe('ab')
    expect(cleanText('\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008', 'f')).toBe('')
    expect(cleanText('a\tb\nc', 'f')).toBe('a\tb\nc')
    expect(cleanText('a\r\nb\rc', 'f')).toBe('a\nb\nc')
    expect(cleanText('\u000b\u000c\u000e\u001b[0m\u001f', 'f')).toBe('[0m')
    // DEL and C1 controls are printable-adjacent text PostgreSQL stores; they are left alone.
    expect(cleanText('\u007f\u0085', 'f')).toBe('\u007f\u0085')
  })

  test('lone surrogates are refused with the field named; pairs in either plane pass', () => {
    for (const s of ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud800b', '\ude00\ud83d', '😀\ud83d'])
      expect(() => cleanText(s, 'answers.focus'), JSON.stringify(s)).toThrow('answers.focus: contains invalid text (an unpaired UTF-16 surrogate)')
    for (const s of ['😀', '𠀀𪚥', '👩‍👩‍👧', 'Ünïcødé 中文 عربى'])
      expect(cleanText(s, 'f')).toBe(s)
  })

  test('for any well-formed string: no control but tab and newline remains, and clean text is unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 50 }), (text, noise) => {
        const mixed = text + noise.replace(/[\ud800-\udfff]/g, '')
        const out = cleanText(mixed, 'f')
        expect(/[\x00-\x08\x0b-\x1f]/.test(out)).toBe(false)
        if (!/[\x00-\x1f]/.test(mixed)) expect(out).toBe(mixed)
      }),
      { seed: 20, numRuns: 500 },
    )
  })
})

describe('cleanInput', () => {
  test('walks arrays, objects and keys, and renames files', () => {
    const file = new File(['x'], 'a\u0000b.png', { type: 'image/png' })
    const out = cleanInput({ 'k\u0000': ['x\u0001', { y: 'z\u0000' }], n: 1, b: true, nil: null, file }) as any
    expect(out.k).toEqual(['x', { y: 'z' }])
    expect(out.n).toBe(1)
    expect(out.file.name).toBe('ab.png')
    expect(out.file.type).toBe('image/png')
    expect(() => cleanInput({ a: [{ b: '\ud800' }] })).toThrow(/^a\.0\.b: /)
  })

  test('a key that only differed by controls does not overwrite the real one', () => {
    expect(cleanInput({ name: 'real', 'na\u0000me': 'fake' })).toEqual({ name: 'real' })
  })

  test('deep nesting is refused at 32 levels', () => {
    let v: unknown = 'x'
    for (let i = 0; i < 32; i++) v = { v }
    expect(() => cleanInput(v)).not.toThrow()
    expect(() => cleanInput({ v })).toThrow(/nested more than 32 levels deep/)
  })
})
