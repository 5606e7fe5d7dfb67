// The app on a phone (touch, a phone's screen and pixel density): the composer above the on-screen keyboard,
// notches and rounded corners kept clear, 44 px touch targets, nothing wider than a 360 px screen, and a pull on
// the chat that scrolls the messages instead of reloading the page.
import { expect, type Page } from '@playwright/test'
import { test, apiSignIn, appPages, hydrated, onboardByApi } from './helpers'
import { layoutProblems } from './layoutCheck'

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
]
// A phone keyboard with its suggestion bar.
const KEYBOARD = 336

async function sendAndWait(page: Page, text: string) {
  const replies = page.locator('.msg-bot')
  const before = await replies.count()
  await page.getByLabel('Message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(replies).toHaveCount(before + 1)
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled()
  await expect(replies.last().locator('.msg-text')).not.toBeEmpty()
  await expect(page.locator('.msg-bot .typing')).toHaveCount(0, { timeout: 30_000 })
}

async function openRoom(page: Page, turns: number) {
  await apiSignIn(page)
  const ids = await onboardByApi(page)
  await page.goto(`/app/conversations/${ids.conversationId}/character/${ids.characterId}`)
  await hydrated(page)
  await expect(page.locator('.msg-bot .msg-text').first()).not.toBeEmpty({ timeout: 30_000 })
  for (let i = 0; i < turns; i++) await sendAndWait(page, `Message number ${i + 1}: how do I keep going when the week is long?`)
  return ids
}

/** Interactive elements smaller than 44×44 px, leaving out links inside running text (WCAG 2.5.5's exception). */
async function smallTargets(page: Page) {
  return page.evaluate(() => {
    const found: string[] = []
    const selector = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=switch], [role=radio], [role=checkbox], [role=tab], [role=menuitem], [role=slider]'
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(el)
      const box = el.getBoundingClientRect()
      if (style.display === 'none' || style.visibility === 'hidden' || box.width < 2 || box.height < 2 || el.closest('[hidden], .sr-only')) continue
      if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'file') continue
      const parent = el.parentElement
      const inText = el.tagName === 'A' && parent && (parent.textContent ?? '').trim().length > (el.textContent ?? '').trim().length && /^(P|LI|SPAN|SMALL|LABEL|TD)$/.test(parent.tagName)
      if (inText) continue
      if (Math.round(box.width) < 44 || Math.round(box.height) < 44) {
        found.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`)
      }
    }
    return found
  })
}

for (const phone of PHONES) {
  test.describe(`on a ${phone.width}×${phone.height} phone`, () => {
    test.use({ viewport: phone, isMobile: true, hasTouch: true, deviceScaleFactor: 3 })

    test('the composer stays above the on-screen keyboard and the newest message stays in view', async ({ page }) => {
      await openRoom(page, 3)
      // The page asks browsers to resize it for the keyboard (Chrome on Android); the room follows the visual
      // viewport for those that only overlay it.
      await expect(page.locator('meta[name=viewport]')).toHaveAttribute('content', /interactive-widget=resizes-content/)
      const input = page.getByLabel('Message')
      await input.tap()
      await expect(input).toBeFocused()
      // The keyboard opens: the visual viewport loses its lower part.
      await page.setViewportSize({ width: phone.width, height: phone.height - KEYBOARD })
      await expect.poll(() => page.evaluate(() => window.visualViewport!.height)).toBe(phone.height - KEYBOARD)
      await expect(input).toBeFocused()
      const fits = () =>
        page.evaluate(() => {
          const viewport = window.visualViewport!
          const bottom = viewport.offsetTop + viewport.height
          const composer = document.querySelector('.composer')!.getBoundingClientRect()
          const send = document.querySelector('.composer .send')!.getBoundingClientRect()
          const list = document.querySelector('.chat-scroll')!.getBoundingClientRect()
          const last = [...document.querySelectorAll('.messages .msg')].at(-1)!.getBoundingClientRect()
          return {
            composerAboveKeyboard: composer.bottom <= bottom + 1 && composer.top >= viewport.offsetTop,
            sendAboveKeyboard: send.bottom <= bottom + 1,
            lastMessageInView: last.bottom <= list.bottom + 1 && last.bottom > list.top,
            pageDidNotScroll: window.scrollY === 0,
          }
        })
      await expect.poll(fits).toEqual({ composerAboveKeyboard: true, sendAboveKeyboard: true, lastMessageInView: true, pageDidNotScroll: true })
      // Typing and sending with the keyboard open: the reply shows above the composer.
      await sendAndWait(page, 'Sent with the keyboard open')
      await expect.poll(fits).toEqual({ composerAboveKeyboard: true, sendAboveKeyboard: true, lastMessageInView: true, pageDidNotScroll: true })
      // The keyboard closes: the room takes the whole screen again.
      await page.setViewportSize(phone)
      await expect.poll(() => page.evaluate(() => document.querySelector('.chat')!.getBoundingClientRect().height)).toBe(phone.height)
      await expect.poll(fits).toEqual({ composerAboveKeyboard: true, sendAboveKeyboard: true, lastMessageInView: true, pageDidNotScroll: true })
    })

    test('notches and rounded corners keep clear of the bars and the composer', async ({ page }) => {
      const ids = await openRoom(page, 0)
      const cdp = await page.context().newCDPSession(page)
      const insets = { top: 47, bottom: 34, left: 0, right: 0 }
      await cdp.send('Emulation.setSafeAreaInsetsOverride' as never, { insets } as never)
      const clear = () =>
        page.evaluate(({ top, bottom }) => {
          const controls = [...document.querySelectorAll('.topbar a, .topbar button, .composer button, .composer textarea')].map((el) => el.getBoundingClientRect())
          return controls.every((box) => box.top >= top && box.bottom <= innerHeight - bottom)
        }, insets)
      await expect.poll(clear).toBe(true)
      for (const path of ['/app/select-character', '/app/settings', `/app/characters/${ids.characterId}/relations/edit`]) {
        await page.goto(path)
        await hydrated(page)
        await expect.poll(() => page.evaluate((top) => [...document.querySelectorAll('.topbar a, .topbar button')].every((el) => el.getBoundingClientRect().top >= top), insets.top), { message: path }).toBe(true)
        // The end of the page scrolls clear of the home indicator.
        const gap = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('main.page')!).paddingBottom))
        expect(gap, path).toBeGreaterThanOrEqual(insets.bottom)
      }
    })

    test('every control of the chat and the app pages is at least 44 px for a finger', async ({ page }) => {
      test.setTimeout(180_000)
      const ids = await openRoom(page, 1)
      // The feedback, regenerate and edit buttons of the last turn show now.
      await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible()
      const findings: string[] = (await smallTargets(page)).map((f) => `chat: ${f}`)
      // An image waiting to be sent has a remove button.
      await page.getByTestId('file-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64') })
      await expect(page.getByRole('button', { name: 'Remove' })).toBeVisible()
      findings.push(...(await smallTargets(page)).map((f) => `chat with an image: ${f}`))
      for (const path of ['/app/select-character', '/app/settings', '/app/settings/profile', '/app/settings/memories', '/app/settings/help', '/app/settings/subscription', `/app/characters/${ids.characterId}/relations/edit`, `/app/characters/${ids.characterId}/upload-chat-history`]) {
        await page.goto(path)
        await hydrated(page)
        await page.waitForTimeout(500)
        findings.push(...(await smallTargets(page)).map((f) => `${path.replace(/[0-9a-f-]{36}/g, ':id')}: ${f}`))
      }
      expect(findings).toEqual([])
    })

    test('a pull on the chat scrolls the messages and never the page (no pull-to-refresh)', async ({ page }) => {
      await openRoom(page, 3)
      const list = page.locator('.chat-scroll')
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overscrollBehaviorY)).toBe('none')
      expect(await list.evaluate((el) => getComputedStyle(el).overscrollBehaviorY)).toBe('contain')
      const box = (await list.boundingBox())!
      const before = await list.evaluate((el) => el.scrollTop)
      expect(before).toBeGreaterThan(0)
      // Scrolling up over the middle of the list, as a pull does.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.wheel(0, -600)
      await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeLessThan(before)
      expect(await page.evaluate(() => [window.scrollY, document.scrollingElement!.scrollTop])).toEqual([0, 0])
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1)
    })
  })
}

test.describe('at 360×740, the narrowest common phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 })

  test('no page scrolls sideways', async ({ page }) => {
    test.setTimeout(240_000)
    const findings: string[] = []
    const check = async (label: string) => {
      await hydrated(page)
      await page.waitForTimeout(700)
      const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth, body: document.body.scrollWidth }))
      if (wide.scroll > wide.width || wide.body > wide.width) findings.push(`${label}: ${JSON.stringify(wide)}`)
      findings.push(...(await layoutProblems(page)).map((p) => `${label}: ${p.what} ${p.where}`))
    }
    await page.goto('/login')
    await page.waitForTimeout(3600)
    await check('/login')
    await apiSignIn(page)
    await page.goto('/app/onboarding?step=get-username')
    await check('onboarding')
    const ids = await onboardByApi(page)
    for (const path of appPages(ids)) {
      await page.goto(path)
      await check(path.replace(/[0-9a-f-]{36}/g, ':id'))
    }
    expect(findings).toEqual([])
  })
})
