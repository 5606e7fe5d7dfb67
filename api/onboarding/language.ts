// The story language a client may send (spec §7 userPreferredLanguage) and the product's default (spec §9: zh-TW).
import type { Language } from '../llm/language'

export const PREFERRED_LANGUAGES = ['en', 'en-US', 'zh-TW', 'zh-CN'] as const
export type PreferredLanguage = (typeof PREFERRED_LANGUAGES)[number]

export const DEFAULT_LANGUAGE: Language = 'zh-TW'

/** "en" is the browser's short form of English; everything is stored as one of the three product languages. */
export function toLanguage(value: string | null | undefined): Language {
  if (value === 'en') return 'en-US'
  return value === 'en-US' || value === 'zh-TW' || value === 'zh-CN' ? value : DEFAULT_LANGUAGE
}
