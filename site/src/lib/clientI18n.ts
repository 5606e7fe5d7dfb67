// i18next for scripts and islands. In the browser it reads the texts the server embedded in the page; while
// the server renders an island it uses the request's translator (see ssrI18n.ts), so both agree.
import i18next, { type TFunction } from 'i18next'

type Lang = 'ENUS' | 'ZHTW' | 'ZHCN'
const SSR_KEY = Symbol.for('ideal-self.ssr-i18n')
type SsrI18n = () => { t: TFunction; lang: Lang } | undefined

let ready = false

export function clientI18n() {
  if (!ready && typeof document !== 'undefined') {
    const el = document.getElementById('i18n-resources')
    const { lang, resources } = el ? JSON.parse(el.textContent || '{}') : { lang: 'ENUS', resources: {} }
    i18next.init({
      lng: lang,
      resources: { [lang]: { translation: resources } },
      initAsync: false,
      interpolation: { escapeValue: false },
    })
    ready = true
  }
  return i18next
}

function ssr() {
  return ((globalThis as Record<symbol, unknown>)[SSR_KEY] as SsrI18n | undefined)?.()
}

export const t = ((key: string, vars?: Record<string, unknown>) =>
  (import.meta.env.SSR ? ssr()?.t(key, vars as never) : clientI18n().t(key, vars as never)) ?? key) as (
  key: string,
  vars?: Record<string, unknown>,
) => string

export const currentLang = (): Lang => (import.meta.env.SSR ? (ssr()?.lang ?? 'ENUS') : (clientI18n().language as Lang))
