// Draws the installed app's icons (site/public/icons/) from the logo, rendered by Chromium so they look exactly
// like the favicon: "any" icons keep its rounded square; maskable ones and Apple's fill the square edge to edge
// with the mark inside the central safe zone (the inner 80 %), since the platform cuts its own shape.
// Run: npx bun scripts/makeAppIcons.ts
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const publicDir = fileURLToPath(new URL('../site/public', import.meta.url))
const outDir = join(publicDir, 'icons')
mkdirSync(outDir, { recursive: true })

const favicon = readFileSync(join(publicDir, 'favicon.svg'), 'utf8')
const mark = favicon.replace(/<rect[^>]*\/>/, '')
// The full-bleed form: a square background, the mark at 70 % so its points stay inside the safe circle.
const fullBleed = (svg: string) =>
  svg.replace(/(<svg[^>]*>)(.*)(<\/svg>)/s, (_, open, inner, close) =>
    `${open}<rect width="120" height="120" fill="#0b0d17"/><g transform="translate(18 18) scale(0.7)">${inner.replace(/<defs>.*<\/defs>/s, '')}</g>${close}`.replace(open, open + (inner.match(/<defs>.*<\/defs>/s)?.[0] ?? '')),
  )

const icons = [
  { name: 'icon-192.png', size: 192, svg: favicon },
  { name: 'icon-512.png', size: 512, svg: favicon },
  { name: 'maskable-192.png', size: 192, svg: fullBleed(mark) },
  { name: 'maskable-512.png', size: 512, svg: fullBleed(mark) },
  { name: 'apple-touch-icon.png', size: 180, svg: fullBleed(mark) },
]

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ deviceScaleFactor: 1 })
for (const icon of icons) {
  await page.setViewportSize({ width: icon.size, height: icon.size })
  const svg = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`)
  await page.screenshot({ path: join(outDir, icon.name), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } })
  console.log(`${icon.name} ${icon.size}×${icon.size}`)
}
await browser.close()
