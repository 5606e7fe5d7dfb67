import { test, expect } from '@playwright/test'
import { devSignIn, newEmail } from './helpers'

test('a new user signs in with the development identity provider and has a session', async ({ page }) => {
  const email = newEmail('signin')
  await devSignIn(page, email, 'Lin')
  const me = await page.request.get('/api/v1/self')
  expect(me.status()).toBe(200)
  expect((await me.json()).email).toBe(email)
})
