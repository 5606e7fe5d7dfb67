// The translator for scripts and islands. In the browser it reads the texts the server embedded in the page;
// while the server renders an island it uses the request's translator (see ssrI18n.ts), so both agree.
import { makeTranslator, type Translate } from './translate'

type Lang = 'ENUS' | 'ZHTW' | 'ZHCN'
const SSR_KEY = Symbol.for('ideal-self.ssr-i18n')
type SsrI18n = () => { t: Translate; lang: Lang } | undefined

let browser: { t: Translate; lang: Lang } | null = null

function clientI18n() {
  if (!browser) {
    const el = typeof document === 'undefined' ? null : document.getElementById('i18n-resources')
    const { lang, resources } = el ? JSON.parse(el.textContent || '{}') : { lang: 'ENUS', resources: {} }
    browser = { t: makeTranslator(lang, resources), lang }
  }
  return browser
}

function ssr() {
  return ((globalThis as Record<symbol, unknown>)[SSR_KEY] as SsrI18n | undefined)?.()
}

export const t: Translate = (key, vars) => (import.meta.env.SSR ? (ssr()?.t(key, vars) ?? key) : clientI18n().t(key, vars))

export const currentLang = (): Lang => (import.meta.env.SSR ? (ssr()?.lang ?? 'ENUS') : clientI18n().lang)
