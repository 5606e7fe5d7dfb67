// The one translator the server render and the islands share: the locale files' conventions, every language.
import { describe, expect, it } from 'vitest'
import { makeTranslator } from '../../../site/src/lib/translate'
import { bundledResources, LANGS } from '../../../site/src/lib/i18n'

const resources = {
  chat: {
    title: 'Chat',
    messagesLeft_one: '1 message left',
    messagesLeft_other: '{{count}} messages left',
    hello: 'Hi {{name}}, {{ name }}!',
    nested: { deep: { deeper: 'Deep {{who.first}}' } },
    only_other: '{{count}} things',
    plain: 'No plural forms: {{count}}',
    html: '<b>{{text}}</b>',
    empty: '',
  },
  lines: ['First {{name}}', 'Second', 3],
  obj: { a: 'x' },
}

describe('makeTranslator', () => {
  const en = makeTranslator('ENUS', resources)
  const zh = makeTranslator('ZHTW', resources)
  const cases: [string, Record<string, unknown> | undefined, string][] = [
    ['chat.title', undefined, 'Chat'],
    ['chat.hello', { name: 'Rin' }, 'Hi Rin, Rin!'],
    ['chat.hello', {}, 'Hi , !'],
    ['chat.nested.deep.deeper', { who: { first: 'Ada' } }, 'Deep Ada'],
    ['chat.messagesLeft', { count: 1 }, '1 message left'],
    ['chat.messagesLeft', { count: 0 }, '0 messages left'],
    ['chat.messagesLeft', { count: 2 }, '2 messages left'],
    ['chat.messagesLeft', { count: 1.5 }, '1.5 messages left'],
    ['chat.messagesLeft', { count: 1000000 }, '1000000 messages left'],
    ['chat.only', { count: 1 }, '1 things'],
    ['chat.plain', { count: 1 }, 'No plural forms: 1'],
    ['chat.plain', { count: '1' }, 'No plural forms: 1'],
    ['chat.html', { text: '<script>x</script>' }, '<b><script>x</script></b>'],
    ['chat.empty', undefined, ''],
    ['chat.missing', undefined, 'chat.missing'],
    ['missing.deeply.nested', { count: 3 }, 'missing.deeply.nested'],
    ['chat', undefined, 'chat'],
    ['obj', undefined, 'obj'],
    ['chat.title.more', undefined, 'chat.title.more'],
    ['', undefined, ''],
    ['constructor', undefined, 'constructor'],
    ['__proto__.toString', undefined, '__proto__.toString'],
  ]
  it.each(cases)('%s with %j → %j', (key, vars, want) => expect(en(key, vars)).toBe(want))

  it('picks plural forms by the language: Chinese has only "other"', () => {
    expect(zh('chat.messagesLeft', { count: 1 })).toBe('1 messages left')
    expect(zh('chat.messagesLeft', { count: 5 })).toBe('5 messages left')
  })

  it('fills each line of a list asked for as a list, leaving other entries as they are', () => {
    expect(en('lines', { returnObjects: true, name: 'Rin' })).toEqual(['First Rin', 'Second', 3])
    // Without returnObjects a list is not a text.
    expect(en('lines')).toBe('lines')
  })

  it('translates every key of the shipped locale files to a text (or a list of texts)', () => {
    for (const lang of LANGS) {
      const t = makeTranslator(lang, bundledResources[lang])
      const walk = (node: Record<string, unknown>, prefix: string) => {
        for (const [k, v] of Object.entries(node)) {
          const key = prefix ? `${prefix}.${k}` : k
          if (typeof v === 'string') expect(t(key, { count: 2 })).not.toMatch(/{{/)
          else if (Array.isArray(v)) expect(t(key, { returnObjects: true })).toHaveLength(v.length)
          else walk(v as Record<string, unknown>, key)
        }
      }
      walk(bundledResources[lang], '')
    }
  })

  it('uses the locale files\' plural pairs in English and one form in Chinese', () => {
    const en = makeTranslator('ENUS', bundledResources.ENUS)
    const cn = makeTranslator('ZHCN', bundledResources.ZHCN)
    expect(en('chat.messagesLeft', { count: 1 })).toBe('1 message left')
    expect(en('chat.messagesLeft', { count: 4 })).toBe('4 messages left')
    expect(cn('chat.messagesLeft', { count: 1 })).not.toBe('chat.messagesLeft')
    expect(cn('chat.messagesLeft', { count: 1 })).toContain('1')
  })
})
