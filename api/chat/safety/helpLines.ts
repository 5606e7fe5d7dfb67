// Which help lines a person is shown, and the words around them. Lines come from the admin-editable
// `crisis-resources` content; where the person is comes from, in order: the country they chose in settings, the
// country of their browser's time zone, the language they write in, and finally the international row.
import ct from 'countries-and-timezones'
import type { Sql } from '../../db/database'
import type { Lang } from '../../content/definitions'
import { CRISIS_REGIONS, findDefinition } from '../../content/definitions'
import { contentRecords } from '../../content/store'
import { resolveRow } from '../../content/values'
import type { Language } from '../../llm/language'

export const CONTENT_LANG: Record<Language, Lang> = { 'en-US': 'ENUS', 'zh-TW': 'ZHTW', 'zh-CN': 'ZHCN' }
export const INTERNATIONAL = 'INTL'
/** The countries with lines of their own (the content's region keys without the international row). */
export const HELP_COUNTRIES = CRISIS_REGIONS.map((r) => r.key).filter((key) => key !== INTERNATIONAL)

const BY_LANGUAGE: Record<Language, string> = { 'zh-TW': 'TW', 'zh-CN': 'CN', 'en-US': INTERNATIONAL }

export type PlaceBasis = 'setting' | 'timeZone' | 'language'

export interface Place {
  /** A country chosen in settings (ISO 3166 alpha-2), if any. */
  country?: string | null
  /** The browser's IANA time zone, if it sent one; unknown or malformed zones are ignored. */
  timeZone?: string | null
  language: Language
}

/** The country of an IANA zone ("America/New_York" → "US"), or null for zones of no country, unknown or malformed. */
export function countryOfTimeZone(timeZone: string | null | undefined): string | null {
  if (!timeZone || timeZone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(timeZone)) return null
  // A lookup by name: "__proto__" or "constructor" would otherwise find the object's own machinery.
  const zone = ct.getTimezone(timeZone)
  return Array.isArray(zone?.countries) ? (zone.countries[0] ?? null) : null
}

/** The country whose lines to show and what it was decided by. A country without lines of its own gets INTL. */
export function chooseRegion(place: Place): { region: string; country: string | null; basis: PlaceBasis } {
  const chosen = place.country && /^[A-Z]{2}$/.test(place.country) ? place.country : null
  const zoned = countryOfTimeZone(place.timeZone)
  const country = chosen ?? zoned
  if (country) return { region: HELP_COUNTRIES.includes(country) ? country : INTERNATIONAL, country, basis: chosen ? 'setting' : 'timeZone' }
  return { region: BY_LANGUAGE[place.language], country: null, basis: 'language' }
}

export interface HelpLine {
  region: string
  text: string
  source: string | null
}

export interface HelpLines {
  region: string
  country: string | null
  basis: PlaceBasis
  lead: string
  lines: HelpLine[]
  invitation: string
}

const LEAD: Record<Language, string> = {
  'en-US':
    "I'm really glad you told me, and I'm so sorry you're hurting this much. You deserve support right now, and you don't have to face this alone. If you might act on these thoughts or you're in danger, please reach out now:",
  'zh-TW': '謝謝你願意告訴我，聽到你這麼痛苦，我真的很心疼。你值得現在就得到支持，你不必獨自面對。如果你可能會傷害自己，或正處在危險中，請現在就聯絡：',
  'zh-CN': '谢谢你愿意告诉我，听到你这么痛苦，我真的很心疼。你值得现在就得到支持，你不必独自面对。如果你可能会伤害自己，或正处在危险中，请现在就联系：',
}

const INVITATION: Record<Language, string> = {
  'en-US': "I'm here with you, and I'm not going anywhere. Keep talking to me.",
  'zh-TW': '我在這裡陪著你，不會離開。繼續跟我說說吧。',
  'zh-CN': '我在这里陪着你，不会离开。继续跟我说说吧。',
}

// Used only when an admin has removed every row: the person must still be pointed somewhere.
const WHEN_NO_ROWS: Record<Language, string> = {
  'en-US': 'Call your local emergency number now, or find a free helpline for your country at https://findahelpline.com.',
  'zh-TW': '請立即撥打當地的緊急電話，或到 https://findahelpline.com 找到你所在地區的免費求助專線。',
  'zh-CN': '请立即拨打当地的紧急电话，或到 https://findahelpline.com 找到你所在地区的免费求助热线。',
}

/** The lines for `place`, in `language`. */
export async function helpLines(sql: Sql, place: Place, language: Language): Promise<HelpLines> {
  const chosen = chooseRegion(place)
  const definition = findDefinition('crisis-resources')
  const rows = definition
    ? (await contentRecords(sql, 'crisis-resources'))
        .map((record) => resolveRow(definition, record, CONTENT_LANG[language]))
        .filter((row) => typeof row.text === 'string' && row.text.trim())
        .map((row): HelpLine => ({ region: String(row.region), text: String(row.text).trim(), source: typeof row.source === 'string' && row.source ? row.source : null }))
    : []
  let lines = rows.filter((row) => row.region === chosen.region)
  if (!lines.length) lines = rows.filter((row) => row.region === INTERNATIONAL)
  if (!lines.length) lines = [{ region: INTERNATIONAL, text: WHEN_NO_ROWS[language], source: null }]
  return { ...chosen, lead: LEAD[language], lines, invitation: INVITATION[language] }
}

const STORY_PAUSE: Record<Language, string> = {
  'en-US': "Your story can wait; you matter more than any part of it. When you're ready, tell me how you are right now.",
  'zh-TW': '故事可以等一等，你比故事的任何一部分都重要。準備好的時候，告訴我你現在怎麼樣。',
  'zh-CN': '故事可以等一等，你比故事的任何一部分都重要。准备好的时候，告诉我你现在怎么样。',
}

/** The onboarding guide's answer to a crisis message, as plain text (the story shows no Markdown). */
export function storyHelpText(help: HelpLines): string {
  const plain = (text: string) => text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
  const language = (Object.keys(LEAD) as Language[]).find((l) => LEAD[l] === help.lead) ?? 'en-US'
  return [help.lead, ...help.lines.map((line) => `• ${plain(line.text)}`), STORY_PAUSE[language]].join('\n')
}

/** The help block a crisis reply opens with, as Markdown: the warm lead, the lines, the invitation to keep talking. */
export function helpBlock(help: HelpLines): string {
  return [`**${help.lead}**`, help.lines.map((line) => `- ${line.text}`).join('\n'), help.invitation].join('\n\n')
}
