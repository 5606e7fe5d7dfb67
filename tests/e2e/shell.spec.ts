import { expect } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, hydrated, apiSignIn, credentialSignIn, devSignIn, newEmail } from './helpers'

async function noSeriousA11yViolations(page: import('@playwright/test').Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

test.describe('login', () => {
  test('the button stays disabled until the terms are accepted; clicking it shows the warning', async ({ page }) => {
    await page.goto('/login')
    const button = page.getByRole('button', { name: 'Continue with Google' })
    await expect(page.getByRole('heading', { name: 'Consult Your Best Self' })).toBeVisible({ timeout: 8000 })
    await expect(button).toBeDisabled()
    await page.locator('#signin-area').click()
    await expect(page.getByText("Heads up! You'll need to agree to the Terms of Use and Privacy Policy before continuing.")).toBeVisible()
    await page.getByRole('checkbox').check()
    await expect(button).toBeEnabled()
    await noSeriousA11yViolations(page)
  })

  test('idealSd is kept for onboarding and removed from the URL', async ({ page }) => {
    await page.goto('/login?idealSd=A%20brave%20painter')
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => sessionStorage.getItem('idealSd'))).toBe('A brave painter')
  })
})

test.describe('redirects', () => {
  test('signed out: /app paths and unknown paths go to /login', async ({ page }) => {
    for (const path of ['/app/settings', '/app/whatever']) {
      await page.goto(path)
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`)
    }
    for (const path of ['/app', '/app/select-character', '/no-such-page']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/login$/)
    }
  })

  test('signed in: /login goes into the app, unknown /app paths to character selection', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/login')
    await expect(page).toHaveURL(/\/app\/onboarding\?step=get-username$/)
    await page.goto('/app/nope/deeper')
    // No character yet, so selection sends a new user on to onboarding.
    await expect(page).toHaveURL(/\/app\/onboarding/)
    await page.goto('/app/onboarding?step=not-a-step')
    await expect(page).toHaveURL(/\/app\/onboarding\?step=get-username$/)
  })
})

test.describe('settings', () => {
  test('menu, back buttons, plan badge and support page', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings?from=%2Fapp%2Fsettings%2Fcustomer-support')
    await expect(page.getByTestId('plan-badge')).toHaveText('Free')
    await expect(page.getByTestId('back')).toHaveAttribute('href', '/app/settings/customer-support')
    await noSeriousA11yViolations(page)
    await page.goto('/app/settings')
    await expect(page.getByTestId('back')).toHaveAttribute('href', '/app/select-character')
    await expect(page.getByRole('link', { name: /Terms & Conditions/ })).toHaveAttribute('target', '_blank')
    await page.getByRole('link', { name: 'Profile' }).click()
    await expect(page).toHaveURL(/\/app\/settings\/profile$/)
    await expect(page.getByTestId('back')).toHaveAttribute('href', '/app/settings')
    await page.goto('/app/settings/customer-support')
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: 'Copy email' }).click()
    await expect(page.getByText('Copied to clipboard!')).toBeVisible()
    await noSeriousA11yViolations(page)
  })

  test('the gear remembers the page it was opened from', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings/profile')
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(page).toHaveURL(/\/app\/settings\?from=%2Fapp%2Fsettings%2Fprofile$/)
  })

  test('name is saved on blur only when non-empty and changed', async ({ page }) => {
    await apiSignIn(page, newEmail('name'), 'Old Name')
    await page.goto('/app/settings/profile')
    const name = page.getByLabel('Name')
    await name.fill('')
    await name.blur()
    await expect(page.getByText('name is required')).toBeVisible()
    await name.fill('New Name')
    await name.blur()
    await expect(page.getByText('Name updated')).toBeVisible()
    expect((await (await page.request.get('/api/v1/self')).json()).name).toBe('New Name')
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '')
    await expect(page.getByText('Your email cannot be changed.')).toBeVisible()
    await noSeriousA11yViolations(page)
  })

  test('account deletion needs the exact phrase and ends at /login', async ({ page }) => {
    const email = newEmail('delete')
    await apiSignIn(page, email)
    await page.goto('/app/settings/profile')
    await page.getByRole('button', { name: 'Delete Account' }).click()
    const dialog = page.getByRole('dialog')
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true })
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel('Confirmation phrase').fill('delete-my-account')
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel('Confirmation phrase').fill('DELETE-MY-ACCOUNT')
    await confirm.click()
    await expect(page).toHaveURL(/\/login$/)
    expect((await page.request.get('/api/v1/self')).status()).toBe(401)
  })

  test('logout asks for confirmation', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings')
    await page.getByRole('button', { name: 'Logout' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(page).toHaveURL(/\/app\/settings$/)
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/login$/)
    expect((await page.request.get('/api/v1/self')).status()).toBe(401)
  })

  test('the language switch renders the app in Traditional and Simplified Chinese', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings')
    await page.getByLabel('Language').selectOption('ZHTW')
    await expect(page.getByRole('link', { name: '個人資料' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant-TW')
    // The switch reloads the page; its select works once the island is live again.
    await hydrated(page)
    await page.getByLabel('語言').selectOption('ZHCN')
    await expect(page.getByRole('link', { name: '个人资料' })).toBeVisible()
    await hydrated(page)
    await page.getByLabel('语言').selectOption('ENUS')
    await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible()
  })
})

test.describe('dev tools', () => {
  test('REGULAR users do not see them', async ({ page }) => {
    await apiSignIn(page)
    await page.goto('/app/settings/profile')
    await expect(page.getByTestId('dev-tools')).toHaveCount(0)
  })

  test('an ADMIN edits the message limit and subscription; only changed fields reach /self', async ({ page }) => {
    await credentialSignIn(page, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
    await page.goto('/app/settings/profile')
    await expect(page.getByRole('button', { name: 'Delete Account' })).toBeDisabled()
    await page.getByTestId('dev-tools').click()
    const dialog = page.getByRole('dialog')
    const sent: unknown[] = []
    page.on('request', (r) => { if (r.url().endsWith('/api/v1/self/message-limit')) sent.push(r.postDataJSON()) })
    await dialog.getByLabel('Count').fill('7')
    await dialog.getByRole('button', { name: 'Save message limit' }).click()
    await expect(page.getByText('Saved')).toBeVisible()
    expect(sent).toEqual([{ count: 7 }])
    await dialog.getByLabel('Type').selectOption('PREMIUM')
    await dialog.getByRole('button', { name: 'Save subscription' }).click()
    await expect.poll(async () => (await (await page.request.get('/api/v1/self')).json()).subscription.type).toBe('PREMIUM')
    const me = await (await page.request.get('/api/v1/self')).json()
    expect(me.messageLimit.count).toBe(7)
    await noSeriousA11yViolations(page)
  })
})

test('a new user signs in through the login page', async ({ page }) => {
  await devSignIn(page, newEmail('journey'), 'Journey')
  await expect(page).toHaveURL(/\/app\/onboarding\?step=get-username$/)
})

test('an error alert over an open dialog can be read and closed', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/settings')
  await page.getByRole('button', { name: 'Logout' }).click()
  await page.route('**/api/v1/auth/sign-out', (route) => route.fulfill({ status: 503, body: '{"statusCode":503,"error":"ServiceUnavailable","message":"busy"}', contentType: 'application/json' }))
  await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click()
  const alert = page.getByRole('alertdialog')
  await expect(alert).toContainText('Logout failed')
  await expect(alert).toContainText('Server Busy, Please try again later (503)')
  await alert.getByRole('button', { name: 'OK' }).click()
  await expect(alert).toHaveCount(0)
  await expect(page).toHaveURL(/\/app\/settings$/)
})

test('screens with a background track show the music toggle, remembered on the device', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/onboarding?step=get-username')
  const toggle = page.getByRole('button', { name: 'Turn music off' })
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  await toggle.click()
  await expect(page.getByRole('button', { name: 'Turn music on' })).toHaveAttribute('aria-pressed', 'false')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Turn music on' })).toBeVisible()
  await page.goto('/app/settings')
  await expect(page.getByRole('button', { name: /Turn music/ })).toHaveCount(0)
})
