// The background track of a screen, from the admin-edited `background-music` content.
import { contentRows } from './content'
import type { Lang } from './i18n'
import { isSafeLinkUrl } from '../../../api/content/linkUrl'

export type MusicScreen = 'onboarding' | 'select-character' | 'chat' | 'relations' | 'upload-chat-history'

export interface Track {
  url: string
  /** 0–100, as the admin set it. */
  volume: number
}

export async function trackFor(screen: MusicScreen | undefined, lang: Lang): Promise<Track | null> {
  if (!screen) return null
  const rows = await contentRows<{ url?: string; volume?: number; screens?: string[] }>('background-music', lang)
  const row = rows.find((r) => r.url && isSafeLinkUrl(r.url) && Array.isArray(r.screens) && r.screens.includes(screen))
  return row?.url ? { url: row.url, volume: typeof row.volume === 'number' ? row.volume : 50 } : null
}
