// The service worker: the build's static files come from a cache after their first load (their names carry a hash
// of their content, so a cached one is never stale), and a page that cannot be reached shows the offline page in
// the person's language. Pages and API answers always come from the network and are never stored: they carry the
// person's data. The build writes its id below (scripts/build.ts), so each build starts with fresh caches.
const BUILD = '__BUILD_ID__'
const STATIC_CACHE = `static-${BUILD}`
const OFFLINE_CACHE = `offline-${BUILD}`
const LANGS = ['ENUS', 'ZHTW', 'ZHCN']
const offlineUrl = (lang) => `/offline?lang=${lang}`
// Public files the shell uses besides the hashed build output.
const SHELL_FILES = ['/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png']

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const offline = await caches.open(OFFLINE_CACHE)
      // Fetched without cookies: the offline page is the same for everyone.
      await offline.addAll(LANGS.map((lang) => new Request(offlineUrl(lang), { credentials: 'omit' })))
      await (await caches.open(STATIC_CACHE)).addAll(SHELL_FILES)
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== STATIC_CACHE && name !== OFFLINE_CACHE) await caches.delete(name)
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable()
      await self.clients.claim()
    })(),
  )
})

/** The language of the offline page: the one the person chose (cookie), else the browser's, as the server picks. */
async function offlineLang() {
  try {
    const saved = self.cookieStore && (await self.cookieStore.get('lang'))
    if (saved && LANGS.includes(saved.value)) return saved.value
  } catch {}
  for (const tag of self.navigator.languages ?? [self.navigator.language]) {
    const t = String(tag).toLowerCase()
    if (t.startsWith('zh')) return /hans|cn|sg|my/.test(t) && !/hant|tw|hk|mo/.test(t) ? 'ZHCN' : 'ZHTW'
    if (t.startsWith('en')) return 'ENUS'
  }
  return 'ENUS'
}

async function page(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request))
  } catch {
    const cached = await caches.match(offlineUrl(await offlineLang()), { cacheName: OFFLINE_CACHE })
    return cached || Response.error()
  }
}

async function staticFile(event) {
  const cache = await caches.open(STATIC_CACHE)
  const hit = await cache.match(event.request)
  if (hit) return hit
  const response = await fetch(event.request)
  // Stored while the page already reads it: the page never waits for the cache.
  if (response.ok && response.type === 'basic') event.waitUntil(cache.put(event.request, response.clone()))
  return response
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return
  if (request.mode === 'navigate') event.respondWith(page(event))
  else if (url.pathname.startsWith('/_astro/') || SHELL_FILES.includes(url.pathname)) event.respondWith(staticFile(event))
})
