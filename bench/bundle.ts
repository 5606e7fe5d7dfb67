// JavaScript each page loads before interaction (bench/pageJs.ts), gzipped, against its budget, and the modules
// that weigh most in it (from the client build's module map, rollup-plugin-visualizer raw data). Builds the site
// with BUNDLE_STATS set, starts it, signs in as a new person and as the admin. Sizes are exact, not timed.
// Run: npx bun bench/bundle.ts
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { jsBeforeInteraction, pageCases, type PageCase } from './pageJs'
import { CHROMIUM_ARGS, startBenchApp } from './benchApp'

const statsFile = process.env.BUNDLE_STATS ?? join(mkdtempSync(join(tmpdir(), 'idealself-bundle-')), 'stats.json')
if (!process.argv.includes('--no-build')) {
  const r = spawnSync(process.execPath, ['scripts/build.ts'], { env: { ...process.env, BUNDLE_STATS: statsFile }, stdio: 'ignore' })
  if (r.status !== 0) throw new Error('build failed')
}
interface Stats {
  nodeParts: Record<string, { renderedLength: number; metaUid: string }>
  nodeMetas: Record<string, { id: string; moduleParts: Record<string, string> }>
}
const stats: Stats | null = process.argv.includes('--no-build') && !process.env.BUNDLE_STATS ? null : JSON.parse(readFileSync(statsFile, 'utf8'))
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7)
// Chunk file → [module name, rendered bytes]; modules from packages are grouped under the package's name. A chunk's
// real gzip size is shared among its modules by rendered size (gzipping each module alone would overstate it).
const chunkModules = new Map<string, [string, number][]>()
for (const meta of Object.values(stats?.nodeMetas ?? {})) {
  const name = meta.id.includes('node_modules/') ? meta.id.split('node_modules/').at(-1)!.split('/').slice(0, meta.id.split('node_modules/').at(-1)!.startsWith('@') ? 2 : 1).join('/') : meta.id.replace(/^\0/, '').replace(/^\/src\//, '')
  for (const [chunk, uid] of Object.entries(meta.moduleParts)) {
    const list = chunkModules.get('/' + chunk) ?? []
    list.push([name, stats!.nodeParts[uid].renderedLength])
    chunkModules.set('/' + chunk, list)
  }
}

const port = 4512
const base = `http://localhost:${port}`
const admin = { email: 'admin@bench.test', password: 'Bench-admin-Passw0rd!' }
const app = await startBenchApp(port, { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password })
try {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const rows: string[] = []
  const tops: string[] = []
  const measure = async (page: import('playwright-core').Page, c: PageCase) => {
    if (only && !c.label.startsWith(only)) return
    const r = await jsBeforeInteraction(page, base + c.path)
    const kb = r.gzip / 1024
    rows.push(`| ${c.label} | \`${c.path.replace(/[0-9a-f-]{36}/g, ':id')}\` | ${r.scripts.length} | ${kb.toFixed(1)} | ${c.target} | ${kb <= c.target ? '✓' : '✗'} |`)
    const weights = new Map<string, number>()
    for (const s of r.scripts) {
      const modules = chunkModules.get(s.path) ?? []
      const rendered = modules.reduce((n, [, len]) => n + len, 0)
      for (const [name, len] of modules) weights.set(name, (weights.get(name) ?? 0) + (s.gzip * len) / rendered)
    }
    const top = [...weights].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 8))
    tops.push(`| ${c.label} | ${top.map(([n, gz]) => `${n} ${(gz / 1024).toFixed(1)}`).join(', ')} |`)
  }
  const page = await browser.newPage()
  const cases0 = pageCases({ characterId: '', conversationId: '' })
  for (const c of cases0.signedOut) await measure(page, c)
  const post = (path: string, data: unknown) => page.request.post(base + '/api/v1' + path, { data })
  const { idToken } = await (await post('/auth/dev/token', { email: 'bundle@example.com', name: 'Bundle' })).json()
  await post('/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })
  for (const c of cases0.onboarding) await measure(page, c)
  await post('/chatbots/training-data/user-name', { userName: 'Bundle' })
  await post('/chatbots/training-data/improved-ideal-self-description', { idealSelfDescription: 'A calm, brave writer' })
  const { characterId } = await (await post('/chatbots/characters?skipChatHistoryUpload=true', { userName: 'Bundle', idealSelfDescription: 'A calm, brave writer' })).json()
  for (let i = 0; i < 120; i++) {
    if ((await (await page.request.get(`${base}/api/v1/chatbots/characters/${characterId}`)).json()).isReady) break
    await Bun.sleep(500)
  }
  const { conversationId } = await (await post('/chatbots/conversations', { name: 'Ideal Self bench', characterId })).json()
  for (const c of pageCases({ characterId, conversationId }).user) await measure(page, c)
  const adminPage = await browser.newPage()
  await adminPage.request.post(base + '/api/v1/auth/login/credential', { data: { username: admin.email, password: admin.password, isWeb: true } })
  for (const c of cases0.admin) await measure(adminPage, c)
  await browser.close()
  console.log('| page | route | scripts | JS before interaction, gzip KB | budget KB | |\n|---|---|---|---|---|---|')
  console.log(rows.join('\n'))
  if (stats) console.log('\n| page | heaviest modules, gzip KB |\n|---|---|\n' + tops.join('\n'))
} finally {
  app.kill('SIGTERM')
}
