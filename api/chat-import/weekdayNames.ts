/**
 * Weekday names as LINE prints them on date lines (en, ja, zh, ko), used only to settle
 * day/month order. Returns 0 = Sunday … 6 = Saturday, or -1 when the word is not recognised.
 */
const NAMES = new Map<string, number>()

const ENGLISH = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
ENGLISH.forEach((name, index) => {
  NAMES.set(name, index)
  NAMES.set(name.slice(0, 3), index)
})
// zh uses 日 or 天 for Sunday; ja and ko have one character per day.
;['日', '一', '二', '三', '四', '五', '六'].forEach((name, index) => NAMES.set(name, index))
NAMES.set('天', 0)
;['日', '月', '火', '水', '木', '金', '土'].forEach((name, index) => NAMES.set(name, index))
;['일', '월', '화', '수', '목', '금', '토'].forEach((name, index) => NAMES.set(name, index))

// 一 … 六 never clash with the Japanese characters; 日 is Sunday in both.
const PREFIXES = ['星期', '禮拜', '礼拜', '週', '周']
const SUFFIXES = ['曜日', '曜', '요일']

export function weekdayFromName(word: string): number {
  let name = word.toLowerCase()
  if (name.endsWith('.')) name = name.slice(0, -1)
  for (const prefix of PREFIXES) if (name.startsWith(prefix)) name = name.slice(prefix.length)
  for (const suffix of SUFFIXES) if (name.endsWith(suffix)) name = name.slice(0, -suffix.length)
  return NAMES.get(name) ?? -1
}
