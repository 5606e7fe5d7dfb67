// The background track of a screen, from the admin-edited `background-music` content.
import { contentRows } from './content'
import type { Lang } from './i18n'

export type MusicScreen = 'onboarding' | 'select-character' | 'chat' | 'relations' | 'upload-chat-history'

export async function trackFor(screen: MusicScreen | undefined, lang: Lang): Promise<string | null> {
  if (!screen) return null
  const rows = await contentRows<{ url?: string; trackUrl?: string; screens?: string[]; enabled?: boolean }>('background-music', lang)
  const row = rows.find((r) => r.enabled !== false && Array.isArray(r.screens) && r.screens.includes(screen))
  return row?.url || row?.trackUrl || null
}
