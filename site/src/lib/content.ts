// Admin-edited content read on the server for page rendering.
import { siteBridge } from '../../../api/siteBridge'
import type { Lang } from './i18n'
import { ServerApiError } from './serverApi'
import { safeLinkUrl } from '../../../api/content/linkUrl'

/** Rows of a content slug in a language; `request` passes the visitor's session for content that needs one. */
export async function contentRows<T = Record<string, unknown>>(slug: string, lang: Lang, request?: Request): Promise<T[]> {
  const headers = { cookie: request?.headers.get('cookie') ?? '' }
  const res = await siteBridge().handle(new Request(`http://internal/api/v1/content/${slug}?locale=${lang}`, { headers }))
  // Content a page can do without is left out, but not when the database is out of reach: that page is a 503.
  if (res.status === 503) throw new ServerApiError(503, await res.text())
  if (!res.ok) return []
  const body = (await res.json()) as { rows?: T[] } | T[]
  return Array.isArray(body) ? body : (body.rows ?? [])
}

export interface SupportLinks {
  email: string
  termsUrl: string
  privacyUrl: string
}

export async function supportLinks(lang: Lang): Promise<SupportLinks> {
  const [row] = await contentRows<Record<string, string>>('support', lang)
  return {
    email: row?.email || 'support@idealself.app',
    // Rows saved before links were checked are checked again here, so no stored javascript: link reaches a page.
    termsUrl: safeLinkUrl(row?.termsUrl, '/terms'),
    privacyUrl: safeLinkUrl(row?.privacyUrl, '/privacy'),
  }
}
