// Labels the offline provider uses outside the chat (the companion's own sentences are in companionTexts.ts).
import type { Language } from './language'

export interface OfflineTexts {
  /** Labels of the profile summary used for prompt-like JSON fields. */
  summary: { name: string; idealSelf: string; goal: string; story: string; people: string }
}

export const OFFLINE_TEXTS: Record<Language, OfflineTexts> = {
  'en-US': { summary: { name: 'Name', idealSelf: 'Wants to become', goal: 'Goal', story: 'Story', people: 'People' } },
  'zh-TW': { summary: { name: '名字', idealSelf: '想成為', goal: '目標', story: '故事', people: '身邊的人' } },
  'zh-CN': { summary: { name: '名字', idealSelf: '想成为', goal: '目标', story: '故事', people: '身边的人' } },
}
