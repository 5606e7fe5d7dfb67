// What a reply adds when the person's message speaks of ending their life or hurting themselves: a short line and
// the helplines from the admin-editable `crisis-resources` content, in the language of the reply.
import type { Sql } from '../db/database'
import type { Lang } from '../content/definitions'
import { findDefinition } from '../content/definitions'
import { contentRecords } from '../content/store'
import { resolveRow } from '../content/values'
import type { Language } from '../llm/language'

const CONTENT_LANG: Record<Language, Lang> = { 'en-US': 'ENUS', 'zh-TW': 'ZHTW', 'zh-CN': 'ZHCN' }

// Where the person probably is, from the language they write in. English speakers could be anywhere (the
// product's home is Taiwan), so they get every region.
const REGIONS: Record<Language, string[]> = {
  'zh-TW': ['TW', 'INTL'],
  'zh-CN': ['CN', 'INTL'],
  'en-US': ['TW', 'CN', 'INTL'],
}

const LEAD: Record<Language, string> = {
  'en-US': "If you are thinking about ending your life or hurting yourself, please reach out to someone right now. You don't have to carry this alone:",
  'zh-TW': '如果你正在想結束生命或傷害自己，請現在就聯絡可以幫助你的人，你不必獨自承受：',
  'zh-CN': '如果你正在想结束生命或伤害自己，请现在就联系可以帮助你的人，你不必独自承受：',
}

// Used only when an admin has removed every row: the person must still be pointed somewhere.
const WHEN_NO_ROWS: Record<Language, string> = {
  'en-US': 'Call your local emergency number now, or find a free helpline for your country at https://findahelpline.com.',
  'zh-TW': '請立即撥打當地的緊急電話，或到 https://findahelpline.com 找到你所在地區的免費求助專線。',
  'zh-CN': '请立即拨打当地的紧急电话，或到 https://findahelpline.com 找到你所在地区的免费求助热线。',
}

/** The text appended to the reply, in `language`. */
export async function crisisResourcesText(sql: Sql, language: Language): Promise<string> {
  const definition = findDefinition('crisis-resources')
  const regions = REGIONS[language]
  const lines = definition
    ? (await contentRecords(sql, 'crisis-resources'))
        .map((record) => resolveRow(definition, record, CONTENT_LANG[language]))
        .filter((row) => typeof row.text === 'string' && row.text.trim() && regions.includes(String(row.region)))
        .sort((a, b) => regions.indexOf(String(a.region)) - regions.indexOf(String(b.region)))
        .map((row) => String(row.text).trim())
    : []
  return [LEAD[language], ...(lines.length ? lines : [WHEN_NO_ROWS[language]])].join('\n')
}
