// Files of any encoding are read; one that cannot be read is marked with why, and the others go on. Continue and
// Upload and Analyze start one request however quickly they are pressed twice.
import { expect } from '@playwright/test'
import { readFileSync } from 'node:fs'
import iconv from 'iconv-lite'
import { test, apiSignIn, onboardByApi } from './helpers'
import { chatExportFixtures } from '../helpers/chatExportFixtures'

const fixtures = chatExportFixtures()
const textOf = (name: string) => readFileSync(fixtures.get(name)!, 'utf8').replace(/^\ufeff/, '')
const file = (name: string, buffer: Buffer) => ({ name, mimeType: 'text/plain', buffer })

test('UTF-16 and Big5 exports are read; a binary file and one over the limit are marked, the others go on', async ({ page }) => {
  await apiSignIn(page)
  const { characterId } = await onboardByApi(page)
  await page.goto(`/app/characters/${characterId}/upload-chat-history`)
  const input = page.getByTestId('chat-file-input')
  await input.setInputFiles([
    file('line-utf16.txt', iconv.encode(textOf('line-ios-en.txt'), 'utf16le')),
    file('photo.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])),
  ])
  // Over the 25 MB limit: marked at once, never sent.
  await input.setInputFiles([file('huge.txt', Buffer.alloc(25 * 1024 * 1024 + 1, 0x61))])
  const tile = (name: string) => page.getByTestId('file-tile').filter({ hasText: name })
  await expect(tile('huge.txt')).toContainText('This file is larger than 25 MB')

  const sent: string[] = []
  page.on('request', (r) => r.url().includes('/chat-history') && r.method() === 'POST' && sent.push(r.url()))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(tile('photo.txt')).toContainText('This file could not be read as text')
  await expect(tile('line-utf16.txt')).not.toHaveClass(/bad/)
  await expect(page.getByText('Marked files are left out', { exact: false })).toBeVisible()
  expect(sent).toHaveLength(1)

  // The marked files stay marked and are left out; Continue goes on with the readable one.
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('We found 2 names in these conversations.')).toBeVisible()
  await page.getByRole('button', { name: 'Back' }).first().click()
  await page.getByRole('button', { name: 'Remove photo.txt' }).click()
  await page.getByRole('button', { name: 'Remove huge.txt' }).click()
  await input.setInputFiles([file('line-big5.txt', iconv.encode(textOf('line-android-zh-TW.txt'), 'big5'))])
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('We found 4 names in these conversations.')).toBeVisible()
  for (const name of ['Mia Chen', 'Alex Turner', '陳小美', '林志明']) await expect(page.getByRole('radio', { name })).toBeVisible()
})

test('a double press of Continue or Upload and Analyze sends one request and starts one analysis', async ({ page }) => {
  await apiSignIn(page)
  const { characterId } = await onboardByApi(page)
  await page.goto(`/app/characters/${characterId}/upload-chat-history`)
  const sent = { names: 0, uploads: 0 }
  // A slow answer keeps the first request open while the second press lands.
  await page.route('**/chat-history*', async (route) => {
    if (route.request().method() === 'POST') {
      if (route.request().url().includes('analyzeNameOnly')) sent.names++
      else sent.uploads++
      await new Promise((r) => setTimeout(r, 400))
    }
    await route.continue()
  })
  await page.getByTestId('chat-file-input').setInputFiles([file('line-ios-en.txt', Buffer.from(textOf('line-ios-en.txt')))])
  const continueButton = page.getByRole('button', { name: 'Continue' })
  // Two clicks in the same moment, before the page can redraw the button as busy.
  await continueButton.evaluate((button: HTMLButtonElement) => {
    button.click()
    button.click()
  })
  await expect(page.getByText('We found 2 names in these conversations.')).toBeVisible()
  expect(sent.names).toBe(1)

  await page.getByRole('radio', { name: 'Mia Chen' }).click()
  const upload = page.getByRole('button', { name: 'Upload and Analyze' })
  await upload.evaluate((button: HTMLButtonElement) => {
    button.click()
    button.click()
  })
  await expect(page).toHaveURL(/\/app\/select-character$/, { timeout: 15_000 })
  expect(sent.uploads).toBe(1)
  const imports = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}/chat-history`)).json()
  expect(imports).toHaveLength(1)
})
