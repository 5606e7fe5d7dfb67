// What the site's server code (Astro middleware and pages) may use of the running API, handed over
// on globalThis so the built site and the API share one set of modules and one database pool.
import type { Runtime } from './runtime'
import { readCookie, recordClientIp, signedInUser } from './http/guard'
import { toUser, type User } from './users/users'
import { misdirected } from './http/publicOrigin'
import { securityHeaders, type SecurityHeaders } from './http/securityHeaders'
import { CHANNELS, MAYBE_MISSED } from './db/bus'
import { LOCALES_CHANGED } from './routes/contentEditors'
import { readRetried } from './db/connectionErrors'
import { localeDoc } from './content/localeDocs'
import type { Lang } from './content/definitions'

export interface SiteBridge {
  handle(request: Request, clientAddress?: string): Promise<Response>
  /** In production, the refusal of a request that came for a host other than PUBLIC_URL's; else null. */
  refuseMisdirected(request: Request): Response | null
  /** The user of the session cookie in a Cookie header, or null; throws when the database is out of reach. */
  currentUser(cookieHeader: string | null): Promise<User | null>
  /** The locale doc an admin saved for a language (overrides the bundled texts), or null; throws when the database is out of reach. */
  savedLocale(lang: Lang): Promise<Record<string, unknown> | null>
  /** The headers every page and file carries (Content-Security-Policy, HSTS…). */
  securityHeaders: SecurityHeaders
  /** The model provider answering replies (`offline` means no model). */
  model(): { kind: string; model: string | null }
  publicConfig: {
    googleClientId: string | null
    devSignIn: boolean
    timeZone: string
    production: boolean
    /** The largest chat-export file, so the upload page marks larger ones before sending them. */
    chatHistoryMaxBytes: number
  }
}

const KEY = Symbol.for('ideal-self.site-bridge')

export function exposeRuntime(rt: Runtime) {
  const localeCache = new Map<string, { doc: Record<string, unknown> | null; until: number }>()
  let generation = 0
  // An admin's edit on any instance empties this cache on every instance (the notice arrives within milliseconds).
  rt.ctx.bus.subscribe(CHANNELS.content, (what) => {
    if (what !== LOCALES_CHANGED && what !== MAYBE_MISSED) return
    localeCache.clear()
    generation++
  })
  const bridge: SiteBridge = {
    handle(request, clientAddress) {
      if (clientAddress) recordClientIp(request, clientAddress)
      return rt.app.handle(request)
    },
    refuseMisdirected(request) {
      const refusal = misdirected(request, rt.cfg.publicUrl, rt.cfg.production)
      return refusal && Response.json(refusal, { status: refusal.statusCode })
    },
    async currentUser(cookieHeader) {
      // Tried again on a lost connection, as the API does its reads: a page is a 503 only when the second try fails too.
      const found = await readRetried(() => signedInUser(rt.ctx, readCookie(cookieHeader, rt.ctx.cookieName)))
      return found ? toUser(found.user, rt.cfg.freeLimitPeriod) : null
    },
    async savedLocale(lang) {
      const hit = localeCache.get(lang)
      if (hit && hit.until > Date.now()) return hit.doc
      const asked = generation
      // A failed read throws (the page is a 503) rather than standing for "nothing saved", which would be kept.
      const doc = (await readRetried(() => localeDoc(rt.ctx.sql, lang)))?.content ?? null
      // No database read per page view; an edit empties the cache at once (above), and the expiry covers the moments
      // a notice could be missed while the listening connection reconnects.
      if (asked === generation) localeCache.set(lang, { doc, until: Date.now() + 3000 })
      return doc
    },
    securityHeaders: securityHeaders(rt.cfg),
    model: () => rt.ctx.model.describe(),
    publicConfig: {
      googleClientId: rt.cfg.googleClientId,
      devSignIn: !!rt.ctx.devIdp,
      timeZone: rt.cfg.timeZone,
      production: rt.cfg.production,
      chatHistoryMaxBytes: rt.cfg.chatHistoryMaxBytes,
    },
  }
  ;(globalThis as Record<symbol, unknown>)[KEY] = bridge
}

export function siteBridge(): SiteBridge {
  const bridge = (globalThis as Record<symbol, unknown>)[KEY] as SiteBridge | undefined
  if (!bridge) throw new Error('The site runs inside `npm start`, which brings the API up first')
  return bridge
}
