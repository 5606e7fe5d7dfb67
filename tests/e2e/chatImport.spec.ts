import { expect } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { readFileSync } from 'node:fs'
import { test, apiSignIn, onboardByApi } from './helpers'
import { chatExportFixtures } from '../helpers/chatExportFixtures'

const fixtures = chatExportFixtures()
const fixture = (name: string) => ({ name, mimeType: 'text/plain', buffer: readFileSync(fixtures.get(name)!) })
const noSerious = async (page: import('@playwright/test').Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
}

test('the tutorial sheet: choose the app, walk its 4 steps, the last opens the file picker', async ({ page }) => {
  await apiSignIn(page)
  const { characterId } = await onboardByApi(page)
  await page.goto(`/app/characters/${characterId}/upload-chat-history`)
  await expect(page.getByText('Upload 1 to 3 recent chats with close friends', { exact: false })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()
  await noSerious(page)
  await page.getByRole('button', { name: 'How do I export a chat?' }).click()
  const sheet = page.getByRole('dialog')
  await sheet.getByRole('button', { name: 'LINE' }).click()
  await expect(sheet.getByText('Step 1 of 4')).toBeVisible()
  for (let i = 0; i < 3; i++) await sheet.getByRole('button', { name: 'Continue' }).click()
  await expect(sheet.getByText('Choose Save to Files', { exact: false })).toBeVisible()
  const chooser = page.waitForEvent('filechooser')
  await sheet.getByRole('button', { name: 'Continue' }).click()
  await chooser
  await expect(sheet).toBeHidden()
})

test('two exports upload, the name is chosen, the people are confirmed and reach the character', async ({ page }) => {
  await apiSignIn(page)
  const { characterId } = await onboardByApi(page)
  await page.goto(`/app/characters/${characterId}/upload-chat-history`)
  const input = page.getByTestId('chat-file-input')
  await input.setInputFiles([fixture('line-ios-en.txt'), fixture('malformed-random.txt')])
  await expect(page.getByText('line-ios-en.txt')).toBeVisible()
  await expect(page.locator('.file-tile').first()).toContainText(/\d+(\.\d)? (B|KB)/)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('This file does not have the correct chat history format')).toBeVisible()
  await page.getByRole('button', { name: 'Remove malformed-random.txt' }).click()
  await input.setInputFiles([fixture('whatsapp-android-en-24h.txt')])
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('We found 6 names in these conversations.')).toBeVisible()
  const upload = page.getByRole('button', { name: 'Upload and Analyze' })
  await expect(upload).toBeDisabled()
  await page.getByRole('radio', { name: 'Mia Chen' }).click()
  await expect(upload).toBeEnabled()
  await noSerious(page)
  await upload.click()
  await expect(page).toHaveURL(/\/app\/select-character$/, { timeout: 15_000 })
  // While the analysis runs, or once it is done (a small chat may be analysed before the page is drawn).
  await expect(page.getByText(/Your chats are uploaded|The people in your chats are ready/).first()).toBeVisible()

  // The analysis runs as a job; the editor shows its loader until the graph is ready.
  await page.goto(`/app/characters/${characterId}/relations`)
  await expect(page.getByTestId('relation-card').first()).toBeVisible({ timeout: 60_000 })
  const cards = page.getByTestId('relation-card')
  expect(await cards.count()).toBeGreaterThanOrEqual(2)
  await noSerious(page)
  const alex = cards.filter({ hasText: 'Alex Turner' })
  await alex.getByRole('button', { name: 'Choose relationship' }).click()
  const picker = page.getByRole('dialog')
  // The picker loads with its first opening; its choices are read once it is there.
  await expect(picker.getByRole('button', { name: 'Done' })).toBeVisible()
  // Clearing every type leaves the card invalid: red border and Continue disabled.
  for (const pressed of await picker.locator('[aria-pressed="true"]').all()) await pressed.click()
  await picker.getByRole('button', { name: 'Done' }).click()
  await expect(alex).toHaveClass(/invalid/)
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()
  await alex.getByRole('button', { name: 'Choose relationship' }).click()
  await picker.getByRole('button', { name: /Mentor/ }).click()
  await picker.getByRole('button', { name: /Colleague/ }).click()
  await picker.getByRole('button', { name: 'Done' }).click()
  await expect(alex).not.toHaveClass(/invalid/)
  await alex.getByRole('slider').focus()
  await page.keyboard.press('End')
  // Remove everyone but Alex; the last card cannot be removed.
  const others = cards.filter({ hasNotText: 'Alex Turner' })
  while ((await others.count()) > 0) {
    const before = await cards.count()
    await others.first().getByRole('button', { name: 'Remove this relation' }).click()
    await expect(cards).toHaveCount(before - 1)
  }
  await expect(cards).toHaveCount(1)
  await expect(alex.getByRole('button', { name: 'You cannot remove this relation (there must be at least one relation)' })).toBeVisible()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/app\/select-character$/)

  const graph = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}/relations`)).json()
  expect(graph.data.relationships).toHaveLength(1)
  expect(graph.data.relationships[0]).toMatchObject({ types: ['MENTOR_ADVISOR', 'COLLEAGUE'], properties: { closeness: 5 } })
  const character = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}`)).json()
  expect(character.stageCompletions.map((s: { stage: string }) => s.stage)).toContain('CONFIRM_RELATIONS')
})
