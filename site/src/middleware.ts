// Every request passes here: /api/v1 goes to the Elysia app in-process (`npm start` hands it over before Astro's
// App, scripts/serveSite.ts; this branch serves `astro dev`); pages get the session user,
// language and texts, and the session-dependent redirects of spec §2 happen before anything renders.
import { defineMiddleware } from 'astro:middleware'
import { siteBridge } from '../../api/siteBridge'
import { LANG_COOKIE, bundledResources, detectLanguage, mergeResources, translatorFor } from './lib/i18n'
import { appRedirect } from './lib/routes'
import { isUnavailable, unavailablePage } from './lib/unavailable'
import { withTranslator } from './lib/ssrI18n'
import { withHeaders } from '../../api/http/securityHeaders'

export const onRequest = defineMiddleware(async (context, next) => {
  const bridge = siteBridge()
  const { pathname } = context.url
  const refused = bridge.refuseMisdirected(context.request)
  if (refused) return refused
  if (pathname === '/api/v1' || pathname.startsWith('/api/v1/')) {
    return bridge.handle(context.request, context.clientAddress)
  }

  const lang = detectLanguage(context.cookies.get(LANG_COOKIE)?.value, context.request.headers.get('accept-language'))
  try {
    const user = await bridge.currentUser(context.request.headers.get('cookie'))
    const resources = mergeResources(bundledResources[lang], await bridge.savedLocale(lang))
    context.locals.user = user
    context.locals.lang = lang
    context.locals.resources = resources
    context.locals.t = translatorFor(lang, resources)

    const target = appRedirect(pathname, user, context.url.search)
    if (target) return withHeaders(context.redirect(target, 302), bridge.securityHeaders.page)
    const response = withHeaders(await withTranslator({ t: context.locals.t, lang }, () => next()), bridge.securityHeaders.page)
    // Pages carry the session user; they must never be cached or shared.
    response.headers.set('cache-control', 'private, no-store')
    return response
  } catch (error) {
    if (!isUnavailable(error)) throw error
    return withHeaders(unavailablePage(lang), bridge.securityHeaders.page)
  }
})
