// A session that ends while a page is open: to the login with the way back, and back after signing in, with a
// half-typed chat message kept for its own conversation.
import { expect, type Page } from '@playwright/test'
import { test, apiSignIn, newEmail, onboardByApi } from './helpers'

/** Ends the session on the server (as expiry does) while the browser still holds its now-invalid cookie. */
async function endSession(page: Page) {
  const cookies = await page.context().cookies()
  expect((await page.request.get('/api/v1/auth/sign-out')).status()).toBeLessThan(300)
  await page.context().addCookies(cookies)
  expect((await page.request.get('/api/v1/self')).status()).toBe(401)
}

/** Signs in on the login page the browser is on, through the development identity provider. */
async function signInHere(page: Page, email: string) {
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Name').fill('Returning User')
  await dialog.getByRole('button', { name: 'Sign in' }).click()
}

test('the session ends mid-chat: login with the way back, the half-typed message kept for that conversation', async ({ page }) => {
  const email = newEmail('expiry')
  await apiSignIn(page, email)
  const first = await onboardByApi(page)
  const other = await (await page.request.post('/api/v1/chatbots/conversations', { data: { name: 'Second', characterId: first.characterId } })).json()
  const room = `/app/conversations/${first.conversationId}/character/${first.characterId}`
  await page.goto(room)
  await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(1, { timeout: 20_000 })
  const input = page.getByLabel('Message')
  await input.fill('I was halfway through telling you about my week')

  await endSession(page)
  await input.press('Enter')
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(room)}`)
  await expect(page.getByText('Not signed in')).toHaveCount(0)

  await signInHere(page, email)
  await expect(page).toHaveURL(room)
  await expect(page.getByLabel('Message')).toHaveValue('I was halfway through telling you about my week')
  // Nothing was sent while signed out.
  await expect(page.locator('.msg-user')).toHaveCount(0)

  // The draft belongs to its conversation: another one starts empty and keeps its own.
  const otherRoom = `/app/conversations/${other.conversationId}/character/${first.characterId}`
  await page.goto(otherRoom)
  await expect(page.getByLabel('Message')).toHaveValue('')
  await page.getByLabel('Message').fill('a different thought')
  await page.goto(room)
  await expect(page.getByLabel('Message')).toHaveValue('I was halfway through telling you about my week')
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.msg-user')).toHaveCount(1)
  await expect(page.getByLabel('Message')).toHaveValue('')
  await page.reload()
  await expect(page.getByLabel('Message')).toHaveValue('')
  await page.goto(otherRoom)
  await expect(page.getByLabel('Message')).toHaveValue('a different thought')

  // Signing out removes the drafts from the device.
  await page.goto('/app/settings')
  await page.getByRole('button', { name: 'Logout' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('chatDraft:')))).toEqual([])
})

test('any page whose session ends goes to the login and comes back after signing in', async ({ page }) => {
  const email = newEmail('expiry-pages')
  await apiSignIn(page, email)
  // A page opened with no session.
  await endSession(page)
  await page.goto('/app/settings/profile?tab=1')
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/app/settings/profile?tab=1')}`)
  await signInHere(page, email)
  await expect(page).toHaveURL('/app/settings/profile?tab=1')

  // A page already open whose next call meets the ended session.
  await endSession(page)
  await page.getByLabel('Name').fill('New name')
  await page.getByLabel('Name').blur()
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/app/settings/profile?tab=1')}`)
  await expect(page.getByText(/Failed to update name/)).toHaveCount(0)

  // A way back that leaves the app is ignored.
  await page.goto('/login?redirect=%2F%2Fevil.example%2Fapp')
  await signInHere(page, email)
  await expect(page).toHaveURL(/\/app\/(onboarding|select-character)/)
})
