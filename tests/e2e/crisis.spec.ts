// Crisis safety as a person meets it with no model running: help comes first, with the lines of where they are.
import { expect } from '@playwright/test'
import { apiSignIn, hydrated, onboardByApi, test } from './helpers'

const cases = [
  { lang: 'English', timezoneId: 'America/New_York', text: "honestly everyone would be better off if i wasn't here anymore", line: '988', other: '1925' },
  { lang: 'English', timezoneId: 'Europe/London', text: 'i have been saving my pills and i think tonight is the night', line: '116 123', other: '988' },
  { lang: 'Traditional Chinese', timezoneId: 'Asia/Taipei', text: '我真的好累，活著好痛苦，不想再撐下去了', line: '1925', other: '12356' },
  { lang: 'Simplified Chinese', timezoneId: 'Asia/Shanghai', text: '遗书已经写好了，这周末就结束一切', line: '12356', other: '1925' },
  { lang: 'English', timezoneId: 'Australia/Sydney', text: 'what is the most painless way to die', line: '13 11 14', other: '988' },
]

for (const c of cases) {
  test.describe(`${c.lang} in ${c.timezoneId}`, () => {
    test.use({ timezoneId: c.timezoneId })

    test(`a crisis message shows the help block first, with that place's line`, async ({ page }) => {
      await apiSignIn(page)
      const { characterId, conversationId } = await onboardByApi(page)
      await page.goto(`/app/conversations/${conversationId}/character/${characterId}`)
      const composer = page.getByRole('textbox')
      await expect(page.locator('[data-role="ASSISTANT"]').first()).toBeVisible()
      await composer.fill(c.text)
      await composer.press('Enter')
      const reply = page.locator('[data-role="ASSISTANT"]').last()
      const help = reply.getByTestId('help-block')
      await expect(help).toBeVisible()
      await expect(help).toContainText(c.line)
      await expect(help).not.toContainText(c.other)
      // The help block is above the companion's words, and a number can be tapped to call.
      const [helpBox, textBox] = await Promise.all([help.boundingBox(), reply.locator('.msg-text').boundingBox()])
      expect(helpBox!.y).toBeLessThan(textBox!.y)
      await expect(help.locator('a[href^="tel:"]').first()).toBeVisible()
      // The companion does not quote the person back.
      await expect(reply.locator('.msg-text')).not.toContainText(c.text.slice(0, 12))
      // After a reload, history keeps the help block in its place.
      await page.reload()
      await expect(page.locator('[data-role="ASSISTANT"]').last().getByTestId('help-block')).toContainText(c.line)
    })
  })
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Europe/London' })

  test('"Get help now" is in the chat header without any message, and opens the local lines', async ({ page }) => {
    await apiSignIn(page)
    const { characterId, conversationId } = await onboardByApi(page)
    await page.goto(`/app/conversations/${conversationId}/character/${characterId}`)
    const button = page.getByTestId('get-help')
    await expect(button).toBeVisible()
    const box = (await button.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    await button.click()
    const dialog = page.getByRole('dialog', { name: 'Get help now' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('116 123')
    await expect(dialog.getByRole('link', { name: 'Choose where you are' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(button).toBeFocused()
  })

  test('settings → Get help now lets the person choose their country', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings')
    await page.getByTestId('settings-help').click()
    await expect(page).toHaveURL(/\/app\/settings\/help$/)
    await expect(page.locator('.help-lines')).toContainText('116 123')
    await page.getByLabel('Country for help lines').selectOption('JP')
    await expect(page.locator('.help-lines')).toContainText('0120-279-338')
    await page.reload()
    await expect(page.getByLabel('Country for help lines')).toHaveValue('JP')
    await page.getByLabel('Country for help lines').selectOption('')
    await expect(page.locator('.help-lines')).toContainText('116 123')
  })
})

test.describe('in the onboarding story', () => {
  // Reduced motion shows the guide's lines whole, so the story moves on without waiting for typing.
  test.use({ timezoneId: 'Australia/Sydney', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' })

  test('an answer about ending one’s life gets the local lines at once, right after it', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/select-character')
    await expect(page).toHaveURL(/step=get-username$/)
    await hydrated(page)
    await page.getByRole('textbox').fill('Sam')
    await page.getByRole('button', { name: 'Hi!' }).click()
    await hydrated(page)
    await page.getByRole('button', { name: "Yes, that's me" }).click()
    await hydrated(page)
    await page.getByRole('textbox').fill('Someone calm who keeps going')
    await page.getByRole('button', { name: 'This is who I want to become' }).click()
    await expect(page).toHaveURL(/interaction-conversation-start$/, { timeout: 40_000 })
    await hydrated(page)
    const answer = "honestly i've been saving up my pills, i don't think i'll be around next week"
    await page.getByLabel('Your answer').fill(answer)
    await page.getByRole('button', { name: 'Submit' }).click()
    const said = page.locator('.story-log .user-line', { hasText: answer })
    await expect(said).toBeVisible()
    // The next line of the story is the help card, shown whole (never typed out), with Australia's line.
    const help = page.locator('.story-log li').filter({ has: page.locator('.story-help') }).last()
    await expect(help).toBeVisible({ timeout: 5_000 })
    await expect(help).toContainText('13 11 14')
    await expect(help).not.toContainText('988')
    const [saidBox, helpBox] = await Promise.all([said.boundingBox(), help.boundingBox()])
    expect(helpBox!.y).toBeGreaterThan(saidBox!.y)
    // Nothing of the answer is quoted back.
    await expect(help).not.toContainText('saving up my pills')
  })
})
