// JavaScript each route ships on the production build, gzip-compressed: every script the page loads in a real
// browser (Chromium), including islands hydrated when idle. Budgets (DESIGN §9): login ≤ 80 KB, chat ≤ 160 KB,
// pages with no interaction 0 KB. Beside it, the bytes that crossed the wire (bodies as sent, in the coding the
// server chose for Chromium's Accept-Encoding): the scripts, and everything the page loaded, document included.
// Run: npx bun bench/pages.ts
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, startBenchApp } from './benchApp'

const port = 4511
const base = `http://localhost:${port}`
const app = await startBenchApp(port, { ADMIN_EMAIL: 'admin@bench.test', ADMIN_PASSWORD: 'Bench-admin-Passw0rd!' })

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })

async function jsBytes(page: Page, path: string) {
  const bodies = new Map<string, Buffer>()
  const wire = new Map<string, { bytes: number; script: boolean; coding: string }>()
  const onResponse = async (res: import('playwright-core').Response) => {
    const type = res.headers()['content-type'] ?? ''
    const script = res.request().resourceType() === 'script' || type.includes('javascript')
    try {
      const sizes = await res.request().sizes()
      wire.set(res.url(), { bytes: sizes.responseBodySize + sizes.responseHeadersSize, script, coding: res.headers()['content-encoding'] ?? 'none' })
    } catch {}
    if (script) {
      try {
        bodies.set(res.url(), await res.body())
      } catch {}
    }
  }
  page.on('response', onResponse)
  await page.goto(base + path, { waitUntil: 'networkidle' })
  await page.waitForTimeout(1500)
  page.off('response', onResponse)
  let gzip = 0
  let raw = 0
  for (const body of bodies.values()) {
    raw += body.length
    gzip += gzipSync(body).length
  }
  // Inline module scripts count too.
  const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].filter((s) => s.getAttribute('type') !== 'application/json').map((s) => s.textContent ?? '').join(''))
  gzip += inline ? gzipSync(inline).length : 0
  const sent = [...wire.values()]
  const jsWire = sent.filter((w) => w.script).reduce((n, w) => n + w.bytes, 0)
  const allWire = sent.reduce((n, w) => n + w.bytes, 0)
  const codings = [...new Set(sent.filter((w) => w.script).map((w) => w.coding))].join('/')
  return { files: bodies.size, raw, gzip, jsWire, allWire, codings, url: page.url() }
}

// Each page as a first visit: no HTTP cache and no service worker carrying files over from the page before.
const context = await browser.newContext({ serviceWorkers: 'block' })
const page = await context.newPage()
const cdp = await context.newCDPSession(page)
await cdp.send('Network.enable')
await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
const rows: string[] = []
const measure = async (label: string, path: string, budget?: number) => {
  const r = await jsBytes(page, path)
  const kb = r.gzip / 1024
  const verdict = budget === undefined ? '' : kb <= budget ? `≤ ${budget} KB ✓` : `> ${budget} KB ✗`
  rows.push(`| ${label} | \`${path}\` | ${r.files} | ${kb.toFixed(1)} | ${verdict} | ${(r.jsWire / 1024).toFixed(1)} (${r.codings || '—'}) | ${(r.allWire / 1024).toFixed(1)} |`)
}

await measure('landing / login', '/login', 80)
const post = (path: string, data: unknown) => page.request.post(base + '/api/v1' + path, { data })
const { idToken } = await (await post('/auth/dev/token', { email: 'pages@example.com', name: 'Pages' })).json()
await post('/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })
await measure('onboarding (name step)', '/app/onboarding?step=get-username')
await post('/chatbots/training-data/user-name', { userName: 'Pages' })
await post('/chatbots/training-data/improved-ideal-self-description', { idealSelfDescription: 'A calm, brave writer' })
const { characterId } = await (await page.request.post(base + '/api/v1/chatbots/characters?skipChatHistoryUpload=true', { data: { userName: 'Pages', idealSelfDescription: 'A calm, brave writer' } })).json()
for (let i = 0; i < 120; i++) {
  if ((await (await page.request.get(`${base}/api/v1/chatbots/characters/${characterId}`)).json()).isReady) break
  await Bun.sleep(500)
}
const { conversationId } = await (await post('/chatbots/conversations', { name: 'Ideal Self bench', characterId })).json()
await measure('select character', '/app/select-character')
await measure('chat room', `/app/conversations/${conversationId}/character/${characterId}`, 160)
await measure('settings', '/app/settings')
await measure('profile', '/app/settings/profile')
await measure('customer support', '/app/settings/customer-support')
await measure('plans', '/app/settings/subscription')
await measure('payment result (no interaction)', '/app/payments/result', 0)
await measure('upload chat history', `/app/characters/${characterId}/upload-chat-history`)
await measure('relationship editor', `/app/characters/${characterId}/relations/edit`)
await browser.close()
app.kill('SIGTERM')

console.log('| page | route | scripts | JS gzip KB | budget | JS on the wire KB (coding) | page on the wire KB, all requests |\n|---|---|---|---|---|---|---|')
console.log(rows.join('\n'))
