// The 4,000-character limit of a chat message: the count near the limit, and text past it kept with the reason.
import { expect } from '@playwright/test'
import { test, apiSignIn, onboardByApi } from './helpers'

test('text pasted past 4,000 characters is kept, counted and explained; once shortened it sends whole', async ({ page }) => {
  await apiSignIn(page)
  const ids = await onboardByApi(page)
  await page.goto(`/app/conversations/${ids.conversationId}/character/${ids.characterId}`)
  await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(1, { timeout: 20_000 })
  const input = page.getByLabel('Message')
  const send = page.getByRole('button', { name: 'Send' })

  // Well below the limit nothing is counted.
  await input.fill('a'.repeat(3000))
  await expect(page.getByText(/characters$/)).toHaveCount(0)
  // Near the limit the count shows, and sending still works up to the limit itself.
  await input.fill('b'.repeat(3700))
  await expect(page.getByText('3,700 / 4,000 characters')).toBeVisible()
  await expect(send).toBeEnabled()

  // A paste past the limit: every character stays, the count and the reason show, sending waits.
  const pasted = `${'word '.repeat(840)}THE END`
  expect(pasted.length).toBe(4207)
  await input.fill('')
  await input.focus()
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.evaluate((text) => navigator.clipboard.writeText(text), pasted)
  await input.press('Control+V')
  await expect(input).toHaveValue(pasted)
  await expect(page.getByText('4,207 / 4,000 characters')).toBeVisible()
  const reason = page.getByRole('alert').filter({ hasText: 'A message can be up to 4,000 characters' })
  await expect(reason).toContainText('shorten it by 207 characters')
  await expect(reason).toContainText('Nothing you wrote has been removed.')
  await expect(input).toHaveAttribute('aria-invalid', 'true')
  await expect(send).toBeDisabled()
  await input.press('Enter')
  await expect(page.locator('.msg-user')).toHaveCount(0)
  await expect(input).toHaveValue(pasted)

  // Shortened to exactly the limit, it sends whole.
  const fits = pasted.slice(0, 4000)
  await input.fill(fits)
  await expect(page.getByText('4,000 / 4,000 characters')).toBeVisible()
  await expect(reason).toHaveCount(0)
  await expect(send).toBeEnabled()
  await send.click()
  await expect(page.locator('.msg-user').last()).toHaveText(new RegExp(`^(You:)?${fits.trim().slice(0, 50)}`))
  await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(2, { timeout: 20_000 })
  const stored = await (await page.request.get(`/api/v1/chatbots/conversations/${ids.conversationId}?messageDirection=asc`)).json()
  expect(stored.messages.find((m: { role: string }) => m.role === 'USER').text).toBe(fits.trim())
  await expect(input).toHaveValue('')
  await expect(page.getByText(/characters$/)).toHaveCount(0)
})
