// One translator for the server render and the browser, so an island renders the same words in both. It follows
// the conventions the locale files are written in: nested keys joined by dots, {{name}} placeholders (values are
// not HTML-escaped: React and Astro escape on output), plural forms as key_one / key_other picked by the
// language's plural rules from `count`, and lists (returnObjects) with each line filled in. A missing text shows
// its key.
import fill from 'templite'

export type Translate = (key: string, vars?: Record<string, unknown>) => string

const pluralLocale: Record<string, string> = { ENUS: 'en-US', ZHTW: 'zh-TW', ZHCN: 'zh-CN' }

function lookup(tree: Record<string, unknown>, key: string): unknown {
  let node: unknown = tree
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

export function makeTranslator(lang: string, resources: Record<string, unknown>): Translate {
  const plurals = new Intl.PluralRules(pluralLocale[lang] ?? 'en-US')
  return (key, vars = {}) => {
    let value: unknown
    if (typeof vars.count === 'number') value = lookup(resources, `${key}_${plurals.select(vars.count)}`) ?? lookup(resources, `${key}_other`)
    value ??= lookup(resources, key)
    if (typeof value === 'string') return fill(value, vars)
    if (vars.returnObjects && Array.isArray(value)) return value.map((line) => (typeof line === 'string' ? fill(line, vars) : line)) as unknown as string
    return key
  }
}
