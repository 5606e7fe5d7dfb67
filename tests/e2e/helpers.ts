import { expect, type Page } from '@playwright/test'

let n = 0
export const newEmail = (tag = 'e2e') => `${tag}-${Date.now().toString(36)}-${++n}@example.com`

/** Signs in through the login page and the development identity provider, as a new user would. */
export async function devSignIn(page: Page, email = newEmail(), name = 'Playwright User') {
  await page.goto('/login')
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: /Continue with Google|使用 Google 繼續|使用 Google 继续/ }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel(/Email|電子郵件|电子邮箱/).fill(email)
  await dialog.getByLabel(/^(Name|名字)$/).fill(name)
  await dialog.getByRole('button', { name: /Sign in|登入|登录/ }).click()
  await page.waitForURL((u) => u.pathname.startsWith('/app/'))
  return email
}

/** Signs in by API only (fast setup for journeys that are not about signing in). */
export async function apiSignIn(page: Page, email = newEmail(), name = 'Playwright User') {
  const tokenRes = await page.request.post('/api/v1/auth/dev/token', { data: { email, name } })
  const { idToken } = await tokenRes.json()
  const res = await page.request.post('/api/v1/auth/login/oauth', { data: { idToken, strategy: 'google', isWeb: true } })
  expect(res.status()).toBe(200)
  return (await res.json()).user
}

export async function credentialSignIn(page: Page, email: string, password: string) {
  const res = await page.request.post('/api/v1/auth/login/credential', { data: { username: email, password, isWeb: true } })
  expect(res.status()).toBe(200)
  return (await res.json()).user
}
