// A page whose data cannot be read because the database connection is lost answers 503 with Retry-After (the API's
// own rule for what it cannot retry), never a 500: a short page in the person's language, built from the bundled
// texts alone, since the saved ones live in the database that is out of reach.
import { isConnectionError } from '../../../api/db/connectionErrors'
import { bundledResources, htmlLang, translatorFor, type Lang } from './i18n'
import { ServerApiError } from './serverApi'

export const RETRY_AFTER_SECONDS = 5

/** A lost database connection, met directly or as the API's 503 behind a server-side call. */
export function isUnavailable(error: unknown): boolean {
  return isConnectionError(error) || (error instanceof ServerApiError && error.status === 503)
}

/**
 * For a read a page can do without (its fallback stands in when the read fails), except when the database is out of
 * reach: then the page is the 503 below, not a page that quietly lacks its data.
 */
export const unlessUnavailable =
  <T>(fallback: T) =>
  (error: unknown): T => {
    if (isUnavailable(error)) throw error
    return fallback
  }

export function unavailablePage(lang: Lang): Response {
  const t = translatorFor(lang, bundledResources[lang])
  const html = `<!doctype html>
<html lang="${htmlLang[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('unavailable.title')}</title></head>
<body><main><h1>${t('unavailable.title')}</h1><p>${t('unavailable.text')}</p><p><a href="">${t('offline.retry')}</a></p></main></body></html>`
  return new Response(html, {
    status: 503,
    headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': String(RETRY_AFTER_SECONDS), 'cache-control': 'no-store' },
  })
}
