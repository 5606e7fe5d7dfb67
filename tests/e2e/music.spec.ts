// The background track: a compressed file (Opus, at most 150 KB for the loop), fetched only when music is on.
import { expect, type Page } from '@playwright/test'
import { test, apiSignIn } from './helpers'

function audioRequests(page: Page) {
  const seen: string[] = []
  page.on('request', (r) => r.url().includes('/audio/') && seen.push(r.url()))
  return seen
}

test('the track is compressed and downloaded only once music is turned on', async ({ page }) => {
  await apiSignIn(page)
  const requested = audioRequests(page)

  // Music off on this device: the page, taps and keys download nothing.
  await page.addInitScript(() => localStorage.getItem('musicOn') ?? localStorage.setItem('musicOn', 'false'))
  await page.goto('/app/onboarding?step=get-username')
  const on = page.getByRole('button', { name: 'Turn music on' })
  await expect(on).toHaveAttribute('aria-pressed', 'false')
  await page.getByRole('textbox').click()
  await page.keyboard.type('Rin')
  await page.mouse.click(5, 400)
  await page.waitForTimeout(500)
  expect(requested).toEqual([])

  // Turned on: now, and only now, the track comes — and plays.
  await on.click()
  await expect(page.getByRole('button', { name: 'Turn music off' })).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => requested.length).toBeGreaterThan(0)
  expect(new URL(requested[0]).pathname).toMatch(/\.(opus|ogg|webm|m4a|aac)$/)
  await expect.poll(() => page.evaluate(() => { const a = document.querySelector('audio')!; return !a.paused && a.currentTime > 0 })).toBe(true)

  const file = await page.request.get(requested[0])
  expect(file.status()).toBe(200)
  expect(file.headers()['content-type']).toMatch(/^audio\/(ogg|opus|webm|mp4|aac)/)
  const bytes = (await file.body()).length
  expect(bytes).toBeLessThanOrEqual(150 * 1024)
  expect(bytes).toBeGreaterThan(20 * 1024)
  // It is the same loop: about 24 seconds.
  const seconds = await page.evaluate(() => document.querySelector('audio')!.duration)
  expect(seconds).toBeGreaterThan(23)
  expect(seconds).toBeLessThan(25)

  // The WAV is no longer served.
  expect((await page.request.get('/audio/ideal-self-ambient.wav', { maxRedirects: 0 })).status()).not.toBe(200)
})
