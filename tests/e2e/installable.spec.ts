// The installable app in a real browser: the manifest parses and its icons load at the sizes it names, the service
// worker serves the build's files on a repeat visit, shows the offline page in the person's language when the
// network is gone, never keeps an API answer or a personal page, and the settings offer "Install app" when the
// browser does.
import { expect, type Page } from '@playwright/test'
import { test, apiSignIn, newEmail, onboardByApi } from './helpers'

test.use({ serviceWorkers: 'allow' })

const OFFLINE_TITLE = { ENUS: 'You are offline', ZHTW: '目前離線', ZHCN: '当前离线' } as const
const INSTALL = { ENUS: 'Install app', ZHTW: '安裝應用程式', ZHCN: '安装应用' } as const

/** Width and height from a PNG's header. */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`
}

async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready)
  // The worker claims the page it was registered from; a reload is the first visit it serves in full.
  await page.reload()
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)
}

async function cachedUrls(page: Page) {
  return page.evaluate(async () => {
    const out: { cache: string; url: string; type: string; body: string }[] = []
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) {
        const res = (await cache.match(request))!
        const type = res.headers.get('content-type') ?? ''
        out.push({ cache: name, url: request.url, type, body: /html|json|javascript/.test(type) ? await res.text() : '' })
      }
    }
    return out
  })
}

test('the manifest parses, starts at the character page, and every icon it names loads at its size', async ({ page }) => {
  await page.goto('/login')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')
  const res = await page.request.get(href!)
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toContain('application/manifest+json')
  expect(res.headers()['cache-control']).not.toContain('immutable')
  const manifest = JSON.parse(await res.text())
  expect(manifest).toMatchObject({
    name: 'Ideal Self', short_name: 'Ideal Self', start_url: '/app/select-character', display: 'standalone', scope: '/',
  })
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i)
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i)
  // Chromium asks for 192 and 512 pixel icons to install, and a maskable one for adaptive launchers.
  const sizes = new Set<string>()
  for (const icon of manifest.icons) {
    const file = await page.request.get(icon.src)
    expect(file.status(), icon.src).toBe(200)
    expect(file.headers()['content-type'], icon.src).toBe(icon.type)
    if (icon.type === 'image/png') {
      expect(pngSize(await file.body()), icon.src).toBe(icon.sizes)
      sizes.add(`${icon.sizes} ${icon.purpose}`)
    }
  }
  for (const needed of ['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']) expect([...sizes]).toContain(needed)
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')
  expect(pngSize(await (await page.request.get(apple!)).body())).toBe('180x180')
  // Chromium's own reading of the manifest: no errors, and the page counts as installable.
  const cdp = await page.context().newCDPSession(page)
  const { errors } = await cdp.send('Page.getAppManifest')
  expect(errors).toEqual([])
})

test('a repeat visit takes the build files from the service worker, and offline pages show the offline page', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000)
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
  })
  await apiSignIn(page, newEmail('pwa'), 'Mei Lin')
  const { characterId, conversationId } = await onboardByApi(page)
  const chat = `/app/conversations/${conversationId}/character/${characterId}`
  await page.goto(chat)
  await controlled(page)
  // Every script and stylesheet of the page now comes from the worker's cache, none from the network.
  const fromWorker: boolean[] = []
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/_astro/')) fromWorker.push(r.fromServiceWorker())
  })
  await page.reload()
  await page.waitForLoadState('networkidle')
  expect(fromWorker.length).toBeGreaterThan(0)
  expect(fromWorker.every(Boolean)).toBe(true)
  // The page itself still comes from the server: it is the person's.
  await expect(page.getByRole('textbox').first()).toBeVisible()
  expect(violations).toEqual([])

  await context.setOffline(true)
  for (const path of [chat, '/app/settings', '/app/select-character']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: OFFLINE_TITLE.ENUS })).toBeVisible()
    // The page asked for stays in the address bar, so "Try again" loads it once the network is back.
    expect(new URL(page.url()).pathname).toBe(path)
    await expect(page.getByTestId('offline-retry')).toHaveAttribute('href', '')
  }
  // In the language the person chose.
  for (const lang of ['ZHTW', 'ZHCN'] as const) {
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL! }])
    await page.goto('/app/settings')
    await expect(page.getByRole('heading', { name: OFFLINE_TITLE[lang] })).toBeVisible()
  }
  await context.setOffline(false)
  await context.addCookies([{ name: 'lang', value: 'ENUS', url: baseURL! }])
  await page.getByTestId('offline-retry').click()
  await expect(page.getByRole('heading', { name: OFFLINE_TITLE.ENUS })).toHaveCount(0)
  await expect(page).toHaveURL(/\/app\/settings$/)
})

test('the service worker never keeps an API answer or a personal page', async ({ page }) => {
  test.setTimeout(120_000)
  const email = newEmail('pwa-private')
  await apiSignIn(page, email, 'Quill Marlowe')
  const { characterId, conversationId } = await onboardByApi(page)
  await page.goto('/app/select-character')
  await controlled(page)
  // Pages that call the API from the browser, visited while the worker is in charge.
  for (const path of [`/app/conversations/${conversationId}/character/${characterId}`, '/app/settings', '/app/settings/profile', '/app/settings/subscription', '/app/settings/memories']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
  }
  await page.evaluate(() => fetch('/api/v1/self').then((r) => r.json()))
  const cached = await cachedUrls(page)
  expect(cached.length).toBeGreaterThan(0)
  const paths = cached.map((c) => new URL(c.url).pathname + new URL(c.url).search)
  // The build's files, the shell's public files and the offline page in each language; nothing else.
  for (const p of paths) expect(p, p).toMatch(/^\/_astro\/|^\/(favicon\.svg|manifest\.webmanifest|icons\/[\w-]+\.png)$|^\/offline\?lang=(ENUS|ZHTW|ZHCN)$/)
  expect(paths.filter((p) => p.startsWith('/offline')).sort()).toEqual(['/offline?lang=ENUS', '/offline?lang=ZHCN', '/offline?lang=ZHTW'])
  expect(paths.some((p) => p.startsWith('/_astro/'))).toBe(true)
  for (const c of cached) {
    expect(c.url).not.toContain('/api/')
    expect(c.body, c.url).not.toContain('Quill Marlowe')
    expect(c.body, c.url).not.toContain(email)
    expect(c.body, c.url).not.toContain(characterId)
  }
})

for (const lang of ['ENUS', 'ZHTW', 'ZHCN'] as const) {
  test(`settings offer "Install app" only while the browser offers to install (${lang})`, async ({ page, context, baseURL }) => {
    await apiSignIn(page, newEmail('pwa-install'))
    await onboardByApi(page)
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL! }])
    await page.goto('/app/settings')
    const entry = page.getByRole('button', { name: new RegExp(INSTALL[lang]) })
    // What Chromium hands a page it deems installable; the test plays the browser's part and records the prompt.
    const offer = () =>
      page.evaluate(() => {
        const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>
        const w = window as unknown as { __prompted?: number }
        w.__prompted = 0
        event.prompt = async () => {
          w.__prompted = (w.__prompted ?? 0) + 1
        }
        event.userChoice = Promise.resolve({ outcome: 'accepted' })
        window.dispatchEvent(event)
        return event.defaultPrevented
      })
    // The page keeps the offer for its own entry instead of the browser's banner.
    expect(await offer()).toBe(true)
    await expect(entry).toBeVisible()
    await entry.focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => (window as unknown as { __prompted?: number }).__prompted)).toBe(1)
    // An offer is good for one prompt.
    await expect(entry).toHaveCount(0)
    // Offered again, then the app gets installed some other way: the entry goes.
    await offer()
    await expect(entry).toBeVisible()
    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')))
    await expect(entry).toHaveCount(0)
  })
}
