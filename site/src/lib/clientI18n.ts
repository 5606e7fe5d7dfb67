// The browser's i18next: the same texts the server rendered with, read from the page (no extra request).
import i18next from 'i18next'

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

export const t = (key: string, vars?: Record<string, unknown>) => clientI18n().t(key, vars as never) as string
export const currentLang = () => clientI18n().language as 'ENUS' | 'ZHTW' | 'ZHCN'
