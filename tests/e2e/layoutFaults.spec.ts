// The layout faults seen in a real browser, each checked where it showed: the admin users table's row actions,
// the music control beside the onboarding progress bar, a toast over the page title, the composer's height,
// and the look of the input once the free messages are used up.
import { expect, type Locator, type Page } from '@playwright/test'
import { test, apiSignIn, credentialSignIn, hydrated, onboardByApi } from './helpers'
import { VIEWPORTS } from './layoutCheck'

const ADMIN = ['admin@e2e.test', 'E2e-admin-Passw0rd!'] as const

async function box(locator: Locator) {
  const b = await locator.boundingBox()
  expect(b).not.toBeNull()
  return b!
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The control can be tapped where it is shown: inside the screen and on top at its middle. */
async function reachable(page: Page, control: Locator) {
  // Only the page scrolls (down to the control); a box that scrolls sideways stays where it is.
  await control.evaluate((el) => window.scrollTo(0, Math.max(0, el.getBoundingClientRect().top + window.scrollY - innerHeight / 2)))
  const b = await box(control)
  const viewport = page.viewportSize()!
  expect(b.x).toBeGreaterThanOrEqual(0)
  expect(b.x + b.width).toBeLessThanOrEqual(viewport.width)
  const onTop = await control.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return !!hit && (hit === el || el.contains(hit))
  })
  expect(onTop).toBe(true)
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: every user's row actions show in the admin table without scrolling it`, async ({ page, browser }) => {
    await page.setViewportSize(viewport)
    // Long addresses are what pushed the actions out of the table.
    for (let i = 0; i < 2; i++) {
      const other = await browser.newContext({ baseURL: test.info().project.use.baseURL })
      // No hyphen or space: nothing in the address lets the browser break it.
      await apiSignIn(await other.newPage(), `averyverylongmailboxnamefortablelayout${Date.now()}${i}@subdomain.example.com`, 'Someone With A Long Name')
      await other.close()
    }
    await credentialSignIn(page, ...ADMIN)
    await page.goto('/admin/app/users')
    await hydrated(page)
    const rows = page.locator('[data-testid^="user-row-"]')
    await expect(rows.first()).toBeVisible()
    for (const row of (await rows.all()).slice(0, 6)) {
      const remove = row.getByRole('button', { name: /^Delete / })
      await reachable(page, remove)
      await reachable(page, row.getByRole('button', { name: /^Edit email of / }))
    }
  })
}

test('phone: the music control does not sit on the onboarding progress bar', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await apiSignIn(page)
  for (const step of ['get-username', 'story-telling-interaction-generate-ideal-self-description']) {
    await page.goto(`/app/onboarding?step=${step}`)
    const music = page.getByRole('button', { name: /Turn music/ })
    const progress = page.getByRole('progressbar').first()
    await expect(music).toBeVisible()
    expect(overlaps(await box(music), await box(progress))).toBe(false)
    await reachable(page, music)
  }
})

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: a toast never covers the page title`, async ({ page, context }) => {
    await page.setViewportSize(viewport)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await apiSignIn(page)
    await page.goto('/app/settings/customer-support')
    await page.getByRole('button', { name: /copy/i }).click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Copied to clipboard!' })
    await expect(toast).toBeVisible()
    await page.waitForTimeout(450)
    const title = page.locator('.topbar .title')
    expect(overlaps(await box(toast), await box(title))).toBe(false)
    await reachable(page, page.getByRole('link', { name: 'Back' }))
  })
}

test('the composer grows to 5 rows at most, then scrolls', async ({ page }) => {
  await apiSignIn(page)
  const ids = await onboardByApi(page)
  await page.goto(`/app/conversations/${ids.conversationId}/character/${ids.characterId}`)
  const input = page.getByLabel('Message')
  const rows = () =>
    input.evaluate((el) => {
      const s = getComputedStyle(el)
      const inner = el.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)
      return Math.round((inner / parseFloat(s.lineHeight)) * 10) / 10
    })
  await input.fill('one line')
  expect(await rows()).toBe(1)
  await input.fill(['1', '2', '3'].join('\n'))
  expect(await rows()).toBe(3)
  for (const lines of [5, 6, 9, 20]) {
    await input.fill(Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join('\n'))
    expect(await rows()).toBe(5)
  }
  expect(await input.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
  // A long line that wraps counts as the rows it takes.
  await input.fill('word '.repeat(400))
  expect(await rows()).toBe(5)
})

test('the input disabled at the message limit looks disabled', async ({ page }) => {
  await credentialSignIn(page, ...ADMIN)
  const ids = await onboardByApi(page)
  const room = `/app/conversations/${ids.conversationId}/character/${ids.characterId}`
  await page.goto(room)
  const input = page.getByLabel('Message')
  await expect(input).toBeEnabled({ timeout: 20_000 })
  const look = () => input.evaluate((el) => {
    const s = getComputedStyle(el)
    return { opacity: Number(s.opacity), cursor: s.cursor, background: s.backgroundColor, border: s.borderStyle }
  })
  const enabled = await look()
  const me = await (await page.request.get('/api/v1/self')).json()
  await page.request.patch('/api/v1/self/message-limit', { data: { count: me.messageLimit.limit } })
  try {
    await page.goto(room)
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
    await expect(input).toBeDisabled()
    const disabled = await look()
    expect(disabled.cursor).toBe('not-allowed')
    expect(disabled.opacity).toBeLessThanOrEqual(0.6)
    expect(disabled).not.toEqual(enabled)
    await expect(input).toHaveAttribute('placeholder', /used|limit|renew/i)
  } finally {
    await page.request.patch('/api/v1/self/message-limit', { data: { count: 0 } })
  }
})
