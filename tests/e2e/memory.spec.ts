// Memory the person can see, with no model: a fact told in one conversation comes back with its chip in another,
// can be edited and forgotten in settings, and the last turn can be regenerated and edited.
import { expect, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, apiSignIn, newEmail, onboardByApi, openChatRoom, sendAndAwaitReply } from './helpers'


const memories = async (page: Page) => (await (await page.request.get('/api/v1/memories')).json()).memories as { id: string; text: string }[]

test('a fact told once comes back with its chip, can be edited and forgotten; the last turn can be regenerated and edited', async ({ page }) => {
  await apiSignIn(page, newEmail('memory'))
  const first = await onboardByApi(page)
  await openChatRoom(page, first)
  await sendAndAwaitReply(page, "I'm training for the Taipei marathon in April.")
  await expect.poll(async () => (await memories(page)).map((m) => m.text), { timeout: 15_000 }).toEqual(["I'm training for the Taipei marathon in April."])

  // Settings shows it, grouped under "About you" and its kind.
  await page.goto('/app/settings')
  await page.getByRole('link', { name: 'What your Ideal Self remembers' }).click()
  await expect(page).toHaveURL(/\/app\/settings\/memories$/)
  await expect(page.getByRole('heading', { name: 'About you' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Plan' })).toBeVisible()
  await expect(page.getByTestId('memory')).toContainText("I'm training for the Taipei marathon in April.")

  // A later conversation: the reply that used it shows the chip, which opens the memory.
  const later = await (await page.request.post('/api/v1/chatbots/conversations', { data: { name: 'Later', characterId: first.characterId } })).json()
  await openChatRoom(page, { conversationId: later.conversationId, characterId: first.characterId })
  await sendAndAwaitReply(page, 'My marathon training felt heavy today, my legs are sore')
  const reply = page.locator('.msg-bot').last()
  const chip = reply.getByRole('button', { name: 'Memory: Taipei marathon' })
  await expect(chip).toBeVisible()
  await chip.click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText("I'm training for the Taipei marathon in April.")
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(chip).toBeFocused()

  // Regenerate: a second version, the first still browsable; the chip stays with each version.
  await reply.getByRole('button', { name: 'Regenerate' }).click()
  await expect(reply.getByText('Version 2 of 2')).toBeVisible({ timeout: 20_000 })
  await reply.getByRole('button', { name: 'Previous version' }).click()
  await expect(reply.getByText('Version 1 of 2')).toBeVisible()
  await expect(reply.getByRole('button', { name: 'Memory: Taipei marathon' })).toBeVisible()

  // Edit and resend the last message: the old reply is replaced.
  const question = page.locator('.msg-user').last()
  const before = await reply.locator('.msg-text').innerText()
  await question.getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Edit your message').fill('My marathon training went well today, I ran 15 km')
  await page.getByRole('button', { name: 'Resend' }).click()
  await expect(question).toContainText('I ran 15 km')
  await expect(reply.getByText(/Version \d of/)).toHaveCount(0, { timeout: 20_000 })
  // The offline companion never quotes the message back, so the new reply shows as a different one.
  await expect(reply.locator('.msg-text')).not.toHaveText(before)
  await page.reload()
  await expect(page.locator('.msg-user').last()).toContainText('I ran 15 km')

  // Edit it in settings, then forget it: the next reply no longer draws on it.
  await page.goto(`/app/settings/memories?memory=${(await memories(page))[0].id}`)
  await page.getByRole('button', { name: 'Edit: Taipei marathon' }).click()
  await page.getByLabel('What your Ideal Self remembers').fill('Training for the Taipei marathon on April 19')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByTestId('memory')).toContainText('Training for the Taipei marathon on April 19')
  await page.getByRole('button', { name: 'Forget: Taipei marathon' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Forget' }).click()
  await expect(page.getByText('Nothing remembered yet.', { exact: false })).toBeVisible()
  expect(await memories(page)).toEqual([])

  await openChatRoom(page, { conversationId: later.conversationId, characterId: first.characterId })
  await sendAndAwaitReply(page, 'How should my marathon training continue next week?')
  await expect(page.locator('.msg-bot').last().locator('.source-chips')).toHaveCount(0)
})

test('search finds memories in Chinese, and forget everything empties the list', async ({ page }) => {
  await apiSignIn(page, newEmail('memory-zh'))
  await onboardByApi(page)
  for (const body of [
    { kind: 'plan', text: '四月要跑台北馬拉松', label: '馬拉松' },
    { kind: 'preference', text: 'Prefers short answers' },
    { kind: 'event', text: 'Starts university in March', personName: 'Mei' },
  ])
    expect((await page.request.post('/api/v1/memories', { data: body })).status()).toBe(200)
  await page.goto('/app/settings/memories')
  await expect(page.getByRole('heading', { name: 'Mei' })).toBeVisible()
  await expect(page.getByTestId('memory')).toHaveCount(3)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
  await page.getByLabel('Search memories').fill('馬拉松')
  await expect(page.getByTestId('memory')).toHaveCount(1)
  await expect(page.getByTestId('memory')).toContainText('四月要跑台北馬拉松')
  await page.getByLabel('Search memories').fill('')
  await expect(page.getByTestId('memory')).toHaveCount(3)
  await page.getByRole('button', { name: 'Forget everything' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Forget everything' }).click()
  await expect(page.getByTestId('memory')).toHaveCount(0)
  expect(await memories(page)).toEqual([])
})
