// Languages of the product and how a request picks one: the saved choice (cookie), else the browser's.
import { makeTranslator, type Translate } from './translate'
import enUS from '../../../locales/en-US.json'
import zhTW from '../../../locales/zh-TW.json'
import zhCN from '../../../locales/zh-CN.json'

export const LANGS = ['ENUS', 'ZHTW', 'ZHCN'] as const
export type Lang = (typeof LANGS)[number]
export const LANG_COOKIE = 'lang'

export const htmlLang: Record<Lang, string> = { ENUS: 'en', ZHTW: 'zh-Hant-TW', ZHCN: 'zh-Hans-CN' }
/** The story language codes the API speaks (userPreferredLanguage). */
export const storyLang: Record<Lang, string> = { ENUS: 'en', ZHTW: 'zh-TW', ZHCN: 'zh-CN' }

export const bundledResources: Record<Lang, Record<string, unknown>> = { ENUS: enUS, ZHTW: zhTW, ZHCN: zhCN }

export const isLang = (s: unknown): s is Lang => typeof s === 'string' && (LANGS as readonly string[]).includes(s)

export function detectLanguage(saved: string | undefined, acceptLanguage: string | null): Lang {
  if (isLang(saved)) return saved
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase()
    if (!tag) continue
    if (tag.startsWith('zh')) {
      return /hans|cn|sg|my/.test(tag) && !/hant|tw|hk|mo/.test(tag) ? 'ZHCN' : 'ZHTW'
    }
    if (tag.startsWith('en')) return 'ENUS'
  }
  return 'ENUS'
}

/** Saved locale docs (admin edits) laid over the files, key by key. */
export function mergeResources(base: Record<string, unknown>, saved: Record<string, unknown> | null): Record<string, unknown> {
  if (!saved) return base
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(saved)) {
    const b = out[k]
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object'
      ? mergeResources(b as Record<string, unknown>, v as Record<string, unknown>)
      : v
  }
  return out
}

export function translatorFor(lang: Lang, resources: Record<string, unknown>): Translate {
  return makeTranslator(lang, resources)
}
