// Skipping the chat import at onboarding leaves the way open: from settings and from the relationship editor a
// person imports chat history at any time, as often as they like.
import { expect } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { readFileSync } from 'node:fs'
import { test, apiSignIn, hydrated, onboardByApi } from './helpers'
import { chatExportFixtures } from '../helpers/chatExportFixtures'

const fixtures = chatExportFixtures()
const fixture = (name: string) => ({ name, mimeType: 'text/plain', buffer: readFileSync(fixtures.get(name)!) })
const noSerious = async (page: import('@playwright/test').Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
}

async function importChats(page: import('@playwright/test').Page, files: string[], me: string) {
  // The import page is reached by a click, not page.goto: the files are given to the picker once its island is live.
  await hydrated(page)
  await page.getByTestId('chat-file-input').setInputFiles(files.map(fixture))
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('radio', { name: me }).click()
  await page.getByRole('button', { name: 'Upload and Analyze' }).click()
  await expect(page).toHaveURL(/\/app\/select-character$/, { timeout: 15_000 })
  // While the analysis runs, or once it is done (a small chat may be analysed before the page is drawn).
  await expect(page.getByText(/Your chats are uploaded|The people in your chats are ready/).first()).toBeVisible()
}

const cardNames = async (page: import('@playwright/test').Page) =>
  (await page.getByTestId('relation-card').locator('h2').allTextContents()).sort()

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  test(`after skipping, chats are imported from settings and again from the editor (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await apiSignIn(page)
    const { characterId } = await onboardByApi(page)

    // Settings lead to the import and to the people; with nothing imported the editor offers the import, not a loader.
    await page.goto('/app/settings')
    await noSerious(page)
    await page.getByRole('link', { name: 'People in your life' }).click()
    await expect(page).toHaveURL(new RegExp(`/app/characters/${characterId}/relations/edit\\?from=`))
    await expect(page.getByRole('heading', { name: 'No chat history yet' })).toBeVisible()
    await noSerious(page)
    await page.getByRole('link', { name: 'Import chat history' }).click()
    await expect(page).toHaveURL(new RegExp(`/app/characters/${characterId}/upload-chat-history\\?from=`))
    // Back returns to where the import was opened from.
    await page.getByRole('link', { name: 'Back' }).first().click()
    await expect(page).toHaveURL(new RegExp(`/relations/edit`))

    await page.goto('/app/settings')
    await page.getByRole('link', { name: 'Import chat history' }).click()
    await expect(page).toHaveURL(new RegExp(`/app/characters/${characterId}/upload-chat-history\\?from=%2Fapp%2Fsettings$`))
    await noSerious(page)
    await importChats(page, ['line-ios-en.txt'], 'Mia Chen')

    await page.goto(`/app/characters/${characterId}/relations/edit?from=/app/settings`)
    await expect(page.getByTestId('relation-card').first()).toBeVisible({ timeout: 60_000 })
    expect(await cardNames(page)).toEqual(['Alex Turner'])
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/app\/settings$/)
    await expect(page.getByText('Relationships saved')).toBeVisible()
    await page.waitForLoadState('load')

    // Again, from the editor: the confirmed person stays, the new chat's people join.
    await page.goto(`/app/characters/${characterId}/relations/edit?from=/app/settings`)
    await expect(page.getByTestId('relation-card').first()).toBeVisible({ timeout: 60_000 })
    await page.getByRole('link', { name: 'Import more chats' }).click()
    await expect(page).toHaveURL(new RegExp(`/app/characters/${characterId}/upload-chat-history\\?from=`))
    await importChats(page, ['line-ios-en.txt', 'whatsapp-android-en-12h.txt'], 'Mia Chen')
    await page.goto(`/app/characters/${characterId}/relations/edit`)
    await expect(page.getByTestId('relation-card').first()).toBeVisible({ timeout: 60_000 })
    expect(await cardNames(page)).toEqual(['Alex Turner', 'Grace Kim', 'Leo Martínez'])

    // And a third time: nothing limits how often.
    await page.getByRole('link', { name: 'Import more chats' }).click()
    await importChats(page, ['line-ios-en.txt'], 'Mia Chen')
    const imports = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}/chat-history`)).json()
    expect(imports).toHaveLength(3)
  })
}
