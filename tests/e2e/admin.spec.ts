// Admin console journeys (spec §2, §4–§8): sign-in and password reset, user management, content and
// locale editing seen from the app, layout, roles, and accessibility in both themes.
import { test, expect, type Browser, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { apiSignIn, credentialSignIn, newEmail } from './helpers'

const ADMIN = { email: 'admin@e2e.test', password: 'E2e-admin-Passw0rd!' }
const STRONG = 'Fresh-Passw0rd!'

/** Waits for the page's islands to hydrate, so what the test types reaches React. */
const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0)

async function open(page: Page, path: string) {
  const res = await page.goto(path)
  await hydrated(page)
  return res
}

async function adminPage(page: Page) {
  await credentialSignIn(page, ADMIN.email, ADMIN.password)
  return page
}

const baseURL = () => test.info().project.use.baseURL!

/** Another browser context on the server under test, e.g. a second person at the same time. */
const newPage = async (browser: Browser) => (await browser.newContext({ baseURL: baseURL(), locale: 'en-US' })).newPage()

/** A new end user signed in (through the development identity provider) in a browser context of their own. */
async function newUser(browser: Browser, opts: { email?: string; name?: string; lang?: string } = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), locale: 'en-US' })
  if (opts.lang) await context.addCookies([{ name: 'lang', value: opts.lang, url: baseURL() }])
  const page = await context.newPage()
  const user = await apiSignIn(page, opts.email ?? newEmail('admin-e2e'), opts.name ?? 'Console Subject')
  return { context, page, user: user as { id: string; email: string } }
}

async function userByEmail(page: Page, email: string) {
  const res = await page.request.get('/api/v1/users', { params: { q: email } })
  return (await res.json()).users.find((u: { email: string }) => u.email === email)
}

async function patchUser(page: Page, id: string, body: Record<string, unknown>) {
  const res = await page.request.patch(`/api/v1/users/${id}`, { data: body })
  expect(res.status()).toBe(200)
}

/** Axe with no serious or critical finding, in the dark theme and again in the light one. */
async function accessibleInBothThemes(page: Page) {
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => localStorage.setItem('admin-theme', t), theme)
    await page.reload()
    await hydrated(page)
    await expect(page.locator('html')).toHaveClass(theme === 'light' ? /admin-light/ : /^(?!.*admin-light)/)
    const { violations } = await new AxeBuilder({ page }).analyze()
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
  await page.evaluate(() => localStorage.removeItem('admin-theme'))
}

test.describe('admin sign-in', () => {
  test('required fields, the three 401 texts, then success', async ({ page, browser }) => {
    const admin = await newPage(browser)
    await adminPage(admin)
    // A Google account opens to a password only once staff unlink it (a linked one answers "Linked" whatever the password).
    const suspended = await newUser(browser)
    await patchUser(admin, suspended.user.id, { isLinkedToOAuthAccount: false })
    await patchUser(admin, suspended.user.id, { password: STRONG })
    await patchUser(admin, suspended.user.id, { isSuspended: true })
    const googleOnly = await newUser(browser)

    await open(page, '/admin/login')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByText('username is required')).toBeVisible()
    await expect(page.getByText('password is required')).toBeVisible()

    const signIn = async (username: string, password: string) => {
      await page.getByLabel('Username').fill(username)
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    }
    await signIn(ADMIN.email, 'Wrong-Passw0rd!')
    await expect(page.getByTestId('login-error')).toHaveText('Invalid username and/or password combination.')
    await signIn(suspended.user.email, STRONG)
    await expect(page.getByTestId('login-error')).toHaveText('Account is Suspended')
    await signIn(googleOnly.user.email, STRONG)
    await expect(page.getByTestId('login-error')).toHaveText('Account is Linked OAuth Account')

    await expect(page.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/admin/forgot-password')
    await expect(page.getByRole('button', { name: 'Sign In With Google' })).toBeVisible()
    await signIn(ADMIN.email, ADMIN.password)
    await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
    // Signed in, the login page sends the admin on to the dashboard.
    await open(page, '/admin/login')
    await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
  })

  test('Sign In With Google uses the development identity provider; a suspended Google account is refused', async ({ page, browser }) => {
    const staff = await newUser(browser)
    const admin = await newPage(browser)
    await adminPage(admin)
    await patchUser(admin, staff.user.id, { isSuspended: true })

    await open(page, '/admin/login')
    const google = async (email: string) => {
      await page.getByRole('button', { name: 'Sign In With Google' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByLabel('Email').fill(email)
      await dialog.getByRole('button', { name: 'Sign in' }).click()
    }
    await google(staff.user.email)
    await expect(page.getByTestId('login-error')).toHaveText('Account is Suspended')
    await google(ADMIN.email)
    await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
    // Google sign-in linked the admin account, which now refuses its password; unlinked again for the journeys
    // that sign in with it.
    const self = await (await page.request.get('/api/v1/self')).json()
    expect(self.isLinkedToOAuthAccount).toBe(true)
    expect((await page.request.post('/api/v1/auth/login/credential', { data: { username: ADMIN.email, password: ADMIN.password } })).status()).toBe(401)
    await patchUser(page, self.id, { isLinkedToOAuthAccount: false })
  })

  test('forgot password: mail link, live rules, reset, sign in with the new password', async ({ page, browser }) => {
    const { user } = await newUser(browser)
    const admin = await newPage(browser)
    await adminPage(admin)
    // Unlinked from Google first: a linked account never signs in with a password, reset or not.
    await patchUser(admin, user.id, { isLinkedToOAuthAccount: false })
    await patchUser(admin, user.id, { password: STRONG })

    await open(page, '/admin/reset-password?token=not-a-token')
    await expect(page).toHaveURL(/\/admin\/login$/)

    await open(page, '/admin/login')
    await page.getByRole('link', { name: 'Forgot Password' }).click()
    await expect(page).toHaveURL(/\/admin\/forgot-password$/)
    await hydrated(page)
    const email = page.getByLabel('Email')
    await email.fill('not-an-email')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('must be an valid email')).toBeVisible()
    await email.fill(user.email)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Password reset requested — if the email is registered, you will receive a password reset link in your email')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/admin/login')

    const { mails } = await (await page.request.get('/api/v1/dev/outbox')).json()
    const mail = mails.find((m: { to: string }) => m.to === user.email)
    const link = /https?:\/\/\S+\/admin\/reset-password\?token=\S+/.exec(mail.text)![0]
    await open(page, link)
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible()
    await accessibleInBothThemes(page)

    const submit = page.getByRole('button', { name: 'Submit' })
    const rule = (key: string) => page.locator(`[data-rule="${key}"]`)
    await expect(submit).toBeDisabled()
    await page.getByLabel('New Password').fill('short')
    await expect(rule('minLength')).toHaveAttribute('data-ok', 'false')
    await expect(rule('lower')).toHaveAttribute('data-ok', 'true')
    await expect(rule('upper')).toHaveAttribute('data-ok', 'false')
    await page.getByLabel('New Password').fill('Renewed-Passw0rd!')
    for (const key of ['minLength', 'lower', 'upper', 'number', 'special']) await expect(rule(key)).toHaveAttribute('data-ok', 'true')
    await page.getByLabel('Confirm Password').fill('Renewed-Passw0rd')
    await expect(page.getByText('not matched to password')).toBeVisible()
    await expect(submit).toBeDisabled()
    await page.getByLabel('Confirm Password').fill('Renewed-Passw0rd!')
    await expect(submit).toBeEnabled()
    await submit.click()
    await expect(page).toHaveURL(/\/admin\/login\?reset=done$/)
    await expect(page.getByText('Your password has been reset. Sign in with your new password.')).toBeVisible()
    await hydrated(page)

    await page.getByLabel('Username').fill(user.email)
    await page.getByLabel('Password').fill('Renewed-Passw0rd!')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
    // A REGULAR user may open the dashboard, which has no figures for them.
    await expect(page.getByText('The dashboard figures are shown to staff (ADMIN and DEVELOPER) only.')).toBeVisible()
  })
})

test.describe('user management', () => {
  test('role, switches, email, password and delete, each saved and shown in the table', async ({ page, browser }) => {
    const subject = await newUser(browser, { name: 'Managed Person' })
    const email = subject.user.email
    await adminPage(page)
    await open(page, '/admin/app/users')
    await page.getByLabel('Search').fill(email)
    const row = page.getByTestId(`user-row-${email}`)
    await expect(row).toBeVisible()
    await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(1)
    await expect(row.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeVisible()

    // Role chip: REGULAR ↔ DEVELOPER.
    await row.getByRole('button', { name: /Role of .*: REGULAR/ }).click()
    await expect(row.getByRole('button', { name: /Role of .*: DEVELOPER/ })).toBeVisible()
    expect((await userByEmail(page, email)).role).toBe('DEVELOPER')
    await row.getByRole('button', { name: /Role of .*: DEVELOPER/ }).click()
    await expect(row.getByRole('button', { name: /Role of .*: REGULAR/ })).toBeVisible()

    // Email-verified and OAuth-linked switches.
    const verified = row.getByRole('switch', { name: `Email verified: ${email}` })
    await expect(verified).toHaveAttribute('aria-checked', 'true')
    await verified.click()
    await expect(verified).toHaveAttribute('aria-checked', 'false')
    expect((await userByEmail(page, email)).isEmailVerified).toBe(false)
    // Unlinked from Google, the account may sign in with a password staff set (a linked one never does).
    const linked = row.getByRole('switch', { name: `Linked to OAuth: ${email}` })
    await expect(linked).toHaveAttribute('aria-checked', 'true')
    await linked.click()
    await expect(linked).toHaveAttribute('aria-checked', 'false')
    expect((await userByEmail(page, email)).isLinkedToOAuthAccount).toBe(false)

    // Set password: the rules first, then the server takes it.
    await row.getByRole('button', { name: `Set password of ${email}` }).click()
    let dialog = page.getByRole('dialog')
    const setButton = dialog.getByRole('button', { name: 'Set password' })
    await dialog.getByLabel('New password').fill('weakpass')
    await expect(setButton).toBeDisabled()
    await dialog.getByLabel('New password').fill(STRONG)
    await setButton.click()
    await expect(page.getByText('Password set')).toBeVisible()
    expect((await subject.page.request.post('/api/v1/auth/login/credential', { data: { username: email, password: STRONG } })).status()).toBe(200)

    // Suspension ends the user's session at once.
    const suspendedSwitch = row.getByRole('switch', { name: `Suspended: ${email}` })
    await suspendedSwitch.click()
    await expect(suspendedSwitch).toHaveAttribute('aria-checked', 'true')
    expect((await subject.page.request.get('/api/v1/self')).status()).toBe(401)
    await suspendedSwitch.click()
    await expect(suspendedSwitch).toHaveAttribute('aria-checked', 'false')

    // Email: an invalid address is refused with the spec's alert; an unchanged one is not sent.
    const patches: string[] = []
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/api/v1/users/') && patches.push(r.postData() ?? ''))
    await row.getByRole('button', { name: `Edit email of ${email}` }).click()
    dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toBeHidden()
    expect(patches).toEqual([])
    await row.getByRole('button', { name: `Edit email of ${email}` }).click()
    await page.getByRole('dialog').getByLabel('Email').fill('not-an-email')
    await expect(page.getByRole('dialog').getByText('not a valid email')).toBeVisible()
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('dialog').getByRole('alert').filter({ hasText: 'Update email failed' })).toContainText('not a valid email')
    expect(patches).toEqual([])
    const renamed = newEmail('renamed')
    await page.getByRole('dialog').getByLabel('Email').fill(renamed)
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Email updated')).toBeVisible()
    const renamedRow = page.getByTestId(`user-row-${renamed}`)
    await expect(renamedRow.getByRole('cell', { name: renamed, exact: true })).toBeVisible()
    expect(await userByEmail(page, renamed)).toBeTruthy()

    // Delete needs the exact phrase.
    await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click()
    dialog = page.getByRole('dialog')
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true })
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel('Type DELETE').fill('delete')
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel('Type DELETE').fill('DELETE')
    await confirm.click()
    await expect(page.getByText(`${renamed} deleted`)).toBeVisible()
    await expect(renamedRow).toHaveCount(0)
    expect(await userByEmail(page, renamed)).toBeUndefined()
  })

  test('an ADMIN row cannot be suspended, re-roled or deleted; sorting, role filter and page size reach the server', async ({ page }) => {
    await adminPage(page)
    await open(page, '/admin/app/users')
    const queries: URLSearchParams[] = []
    page.on('request', (r) => r.url().includes('/api/v1/users?') && queries.push(new URL(r.url()).searchParams))

    await page.getByLabel('Role', { exact: true }).selectOption('ADMIN')
    const row = page.getByTestId(`user-row-${ADMIN.email}`)
    await expect(row).toBeVisible()
    await expect.poll(() => queries.at(-1)?.get('role')).toBe('ADMIN')
    await expect(row.getByRole('switch', { name: `Suspended: ${ADMIN.email}` })).toBeDisabled()
    await expect(row.getByRole('button', { name: `Delete ${ADMIN.email}` })).toBeDisabled()
    await expect(row.getByRole('button', { name: /Role of/ })).toHaveCount(0)
    await expect(row.getByText('ADMIN', { exact: true })).toBeVisible()

    await page.getByRole('button', { name: 'Email', exact: true }).click()
    await expect(page.getByRole('columnheader', { name: 'Email', exact: true })).toHaveAttribute('aria-sort', 'ascending')
    await expect.poll(() => `${queries.at(-1)?.get('sort')} ${queries.at(-1)?.get('order')}`).toBe('email asc')
    await page.getByLabel('Rows per page').selectOption('10')
    await expect.poll(() => queries.at(-1)?.get('pageSize')).toBe('10')
    await accessibleInBothThemes(page)
  })
})

test.describe('content editors', () => {
  test('numbers outside min/max are refused with the toast and revert; a valid edit is saved', async ({ page }) => {
    await adminPage(page)
    await open(page, '/admin/app/content-editors')
    await page.getByRole('link', { name: /Subscription plans/ }).click()
    await expect(page.getByRole('heading', { name: 'Subscription plans' })).toBeVisible()
    await hydrated(page)
    const price = page.getByLabel('Price (USD), row 1', { exact: true })
    const before = await price.inputValue()
    await price.fill('20000')
    await price.press('Enter')
    await expect(page.getByText('max value 10000(change not saved)')).toBeVisible()
    await expect(price).toHaveValue(before)
    await price.fill('-5')
    await price.press('Enter')
    await expect(page.getByText('min value 0(change not saved)')).toBeVisible()
    await expect(price).toHaveValue(before)

    await open(page, '/admin/app/content-editors/background-music')
    const volume = page.getByLabel('Volume (%), row 1', { exact: true })
    const volumeBefore = await volume.inputValue()
    await volume.fill('55')
    await volume.press('Enter')
    await expect(page.getByText('Saved', { exact: true })).toBeVisible()
    await page.reload()
    await hydrated(page)
    await expect(volume).toHaveValue('55')
    await volume.fill(volumeBefore)
    await volume.press('Enter')
    await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible()
  })

  test('a role hint translated in ZHTW shows in onboarding for a zh-TW user', async ({ page, browser }) => {
    await adminPage(page)
    await open(page, '/admin/app/content-editors/role-hints')
    // The first seeded hint is the one onboarding shows first.
    const row = page.locator('tr', { has: page.locator('input[value="A calm, confident leader who listens before deciding."]') })
    const rowId = await row.getAttribute('data-row-id')
    await page.getByRole('tab', { name: '繁體中文 (ZHTW)' }).click()
    await expect(page.getByRole('columnheader', { name: 'Hint (ZHTW)' })).toBeVisible()
    const hint = `一位從容的領袖，先傾聽再決定（${Date.now().toString(36)}）`
    const cell = page.locator(`tr[data-row-id="${rowId}"] input`)
    await cell.fill(hint)
    await cell.press('Enter')
    await expect(page.getByText('Saved', { exact: true })).toBeVisible()

    const zh = await newUser(browser, { lang: 'ZHTW' })
    await zh.page.goto('/app/onboarding?step=story-telling-interaction-generate-ideal-self-description')
    await expect(zh.page.getByText(hint)).toBeVisible()
  })

  test('a new row needs every field; column widths are remembered per slug', async ({ page }) => {
    await adminPage(page)
    await open(page, '/admin/app/content-editors/crisis-resources')
    await expect(page.getByText('13 rows, newest first')).toBeVisible()
    await page.getByRole('button', { name: 'Add row' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(dialog.getByText('Region is required')).toBeVisible()
    await expect(dialog.getByText('Text is required')).toBeVisible()
    await expect(dialog.getByText('Source is required')).toBeVisible()
    await dialog.getByLabel('Region').selectOption('TW')
    await dialog.getByLabel('Source').fill('https://www.mohw.gov.tw')
    await dialog.getByLabel('Text (ENUS)').fill('Test helpline 1925')
    await dialog.getByLabel('Text (ZHTW)').fill('測試專線 1925')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(page.getByText('Row created')).toBeVisible()
    await expect(page.getByText('14 rows, newest first')).toBeVisible()
    await expect(page.getByLabel('Text (ENUS), row 1', { exact: true })).toHaveValue('Test helpline 1925')

    const handle = page.getByRole('button', { name: 'Resize column Region' })
    const width = async () => (await page.getByRole('columnheader', { name: 'Region' }).boundingBox())!.width
    const start = await width()
    await handle.focus()
    for (let i = 0; i < 5; i++) await handle.press('ArrowRight')
    await expect.poll(width).toBeGreaterThan(start + 70)
    // Dragging the handle resizes too.
    const box = (await handle.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect.poll(width).toBeGreaterThan(start + 130)
    await expect.poll(() => page.evaluate(() => localStorage.getItem('admin-column-sizing:crisis-resources'))).toContain('field:region')
    await page.reload()
    await expect.poll(width).toBeGreaterThan(start + 130)
  })
})

test.describe('locale management', () => {
  test('invalid JSON disables Save; a saved ENUS text shows in the app', async ({ page, browser }) => {
    await adminPage(page)
    await open(page, '/admin/app/locale-management')
    const editor = page.getByLabel('English (ENUS) texts (JSON)')
    const save = page.getByRole('button', { name: 'Save', exact: true })
    const original = await editor.inputValue()
    await expect(save).toBeDisabled()

    await editor.fill(original.replace('{', '{,'))
    await expect(page.getByTestId('json-status')).toContainText('Invalid JSON on line 1')
    await expect(save).toBeDisabled()
    await page.getByRole('button', { name: 'Go to line 1' }).click()
    await expect(editor).toBeFocused()
    // Spacing alone is no change.
    await editor.fill(JSON.stringify(JSON.parse(original)))
    await expect(page.getByTestId('json-status')).toHaveText('Valid JSON, same as saved.')
    await expect(save).toBeDisabled()

    const title = `Settings ${Date.now().toString(36)}`
    const doc = JSON.parse(original)
    doc.settings.title = title
    await editor.fill(JSON.stringify(doc, null, 2))
    await expect(save).toBeEnabled()
    const sent = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/api/v1/content-editors/locales'))
    await save.click()
    expect((await sent).postDataJSON().locales.map((l: { id: string }) => l.id)).toEqual(['ENUS'])
    await expect(page.getByText('Saved ENUS')).toBeVisible()
    await expect(save).toBeDisabled()

    const user = await newUser(browser)
    await expect
      .poll(async () => {
        await user.page.goto('/app/settings')
        return user.page.title()
      }, { timeout: 15_000 })
      .toBe(`${title} · Ideal Self`)

    // Put the doc back so the other journeys read the shipped texts.
    const res = await page.request.patch('/api/v1/content-editors/locales', { data: { locales: [{ id: 'ENUS', content: JSON.parse(original) }] } })
    expect(res.status()).toBe(200)
  })
})

test.describe('layout and roles', () => {
  test('a narrow screen gets the menu as a drawer that traps focus and closes on Escape', async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 800 })
    await adminPage(page)
    await open(page, '/admin/app/dashboard')
    await expect(page.locator('.admin-sidebar')).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Admin Console' })
    await expect(drawer.getByRole('link', { name: 'Locale Management' })).toBeVisible()
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab')
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused()
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog').getByRole('link', { name: 'Users' }).click()
    await expect(page).toHaveURL(/\/admin\/app\/users$/)
  })

  test('the theme toggle is remembered and applied before the page shows', async ({ page }) => {
    await adminPage(page)
    await open(page, '/admin/app/settings')
    const toggle = page.getByRole('button', { name: 'Dark theme' })
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await expect(page.locator('html')).toHaveClass(/admin-light/)
    await page.goto('/admin/app/dashboard', { waitUntil: 'domcontentloaded' })
    expect(await page.evaluate(() => document.documentElement.classList.contains('admin-light'))).toBe(true)
    await page.goto('/admin/login', { waitUntil: 'domcontentloaded' })
    expect(await page.evaluate(() => document.documentElement.classList.contains('admin-light'))).toBe(true)
    await hydrated(page)
    await page.getByRole('button', { name: 'Dark theme' }).click()
    await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true')
    await page.reload()
    await expect(page.locator('html')).not.toHaveClass(/admin-light/)
  })

  test('a DEVELOPER sees Dashboard and Settings only and is sent back from ADMIN pages', async ({ page, browser }) => {
    const dev = await newUser(browser)
    await adminPage(page)
    await patchUser(page, dev.user.id, { role: 'DEVELOPER' })
    await open(dev.page, '/admin/app/dashboard')
    const nav = dev.page.locator('.admin-sidebar').getByRole('navigation', { name: 'Admin menu' })
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Settings'])
    await expect(dev.page.getByTestId('stat-users')).toBeVisible()
    for (const path of ['/admin/app/users', '/admin/app/content-editors', '/admin/app/content-editors/role-hints', '/admin/app/locale-management']) {
      await dev.page.goto(path)
      await expect(dev.page).toHaveURL(/\/admin\/app\/dashboard$/)
    }
    await open(dev.page, '/admin/app/settings')
    await expect(dev.page.getByLabel('Email')).toHaveAttribute('readonly', '')
    await expect(dev.page.getByText('Only an ADMIN can change the email.')).toBeVisible()
  })

  test('unknown admin paths go to the dashboard (or the login); an unknown content slug is the 404 page', async ({ page }) => {
    await open(page, '/admin/no-such-page')
    await expect(page).toHaveURL(/\/admin\/login$/)
    await adminPage(page)
    for (const path of ['/admin/no-such-page', '/admin/app/nothing/here', '/admin', '/admin/app']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
    }
    const res = await open(page, '/admin/app/content-editors/no-such-slug')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: "Oops! The page you are looking for doesn't exist." })).toBeVisible()
    await page.getByRole('link', { name: 'Go Back Home' }).click()
    await expect(page).toHaveURL(/\/admin\/app\/dashboard$/)
  })

  test('settings: name required, ADMIN email checked, Save only with a change; Logout from the avatar menu', async ({ page }) => {
    await adminPage(page)
    await open(page, '/admin/app/settings')
    const save = page.getByRole('button', { name: 'Save' })
    await expect(page.getByLabel('ID', { exact: true })).toHaveAttribute('readonly', '')
    await expect(save).toBeDisabled()
    const name = page.getByLabel('Name')
    const before = await name.inputValue()
    await name.fill('')
    await expect(page.getByText('is required', { exact: true })).toBeVisible()
    await expect(save).toBeDisabled()
    await page.getByLabel('Email').fill('admin@')
    await expect(page.getByText('must be a valid email')).toBeVisible()
    await page.getByLabel('Email').fill(ADMIN.email)
    await name.fill('Console Admin')
    await save.click()
    await expect(page.getByText('Profile saved')).toBeVisible()
    await expect(save).toBeDisabled()
    expect((await (await page.request.get('/api/v1/self')).json()).name).toBe('Console Admin')
    await name.fill(before)
    await save.click()
    await expect(save).toBeDisabled()

    await page.getByRole('button', { name: 'Account menu' }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)
    expect((await page.request.get('/api/v1/self')).status()).toBe(401)
  })
})

test('every admin page has no serious or critical accessibility finding in either theme', async ({ page }) => {
  for (const path of ['/admin/login', '/admin/forgot-password']) {
    await open(page, path)
    await accessibleInBothThemes(page)
  }
  await adminPage(page)
  for (const path of [
    '/admin/app/dashboard',
    '/admin/app/users',
    '/admin/app/content-editors',
    '/admin/app/content-editors/relationship-types',
    '/admin/app/content-editors/background-music',
    '/admin/app/locale-management',
    '/admin/app/settings',
    '/admin/app/under-construction',
    '/admin/app/content-editors/no-such-slug',
  ]) {
    await open(page, path)
    await accessibleInBothThemes(page)
  }
})
