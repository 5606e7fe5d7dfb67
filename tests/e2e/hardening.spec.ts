// The production policy in a real browser: every page loads under its Content-Security-Policy with no violation,
// carries the security headers, cannot be framed; return paths never lead to another host; another site cannot
// sign a person out; staff changes to how a person signs in show in the console.
import { expect, type Page, type Response } from '@playwright/test'
import { test, apiSignIn, credentialSignIn, newEmail, onboardByApi } from './helpers'

const ADMIN = { email: 'admin@e2e.test', password: 'E2e-admin-Passw0rd!' }

/** Records every CSP violation the page reports, from the first script on. */
async function watchViolations(page: Page) {
  const violations: string[] = []
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] }
      ;(w.__csp ??= []).push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`)
    })
  })
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame|connect)/i.test(m.text())) violations.push(m.text())
  })
  return async () => [...violations, ...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])) as string[])]
}

function expectSecurityHeaders(response: Response | null, path: string) {
  expect(response, path).not.toBeNull()
  const h = response!.headers()
  expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'")
  expect(h['x-content-type-options'], path).toBe('nosniff')
  expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
  expect(h['permissions-policy'], path).toContain('geolocation=(self)')
}

async function visitAll(page: Page, paths: string[]) {
  const violations = await watchViolations(page)
  for (const path of paths) {
    const response = await page.goto(path)
    expectSecurityHeaders(response, path)
    // One policy, with hashes for the page's inline scripts and nothing that allows any other inline script.
    const policy = response!.headers()['content-security-policy']
    expect(policy, path).toMatch(/script-src 'self'[^;]*'sha256-/)
    expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/)
    expect(policy, path).toContain(`form-action 'self'`)
    // Islands hydrate and the page answers input under the policy.
    await page.waitForLoadState('networkidle')
    expect(await violations(), path).toEqual([])
  }
}

test('every app page loads under the Content-Security-Policy without a violation', async ({ page }) => {
  test.setTimeout(180_000)
  await visitAll(page, ['/', '/login', '/not-a-page'])
  await apiSignIn(page, newEmail('csp'))
  const onboarding = [
    'get-username', 'name-confirmation', 'story-telling-interaction-generate-ideal-self-description',
    'story-telling-interaction-before-conversation-start', 'story-telling-interaction-conversation-start',
  ].map((step) => `/app/onboarding?step=${step}`)
  await visitAll(page, onboarding)
  const { characterId, conversationId } = await onboardByApi(page)
  await visitAll(page, [
    '/app/select-character',
    `/app/conversations/${conversationId}/character/${characterId}`,
    `/app/characters/${characterId}/upload-chat-history`,
    `/app/characters/${characterId}/relations`,
    `/app/characters/${characterId}/relations/edit`,
    '/app/settings',
    '/app/settings/profile',
    '/app/settings/subscription',
    '/app/settings/customer-support',
    '/app/settings/help',
    '/app/subscription',
    '/app/payments/result',
  ])
})

test('every admin page loads under the Content-Security-Policy without a violation, in both themes', async ({ page }) => {
  test.setTimeout(180_000)
  await visitAll(page, ['/admin/login', '/admin/forgot-password'])
  await credentialSignIn(page, ADMIN.email, ADMIN.password)
  const pages = [
    '/admin/app/dashboard', '/admin/app/users', '/admin/app/content-editors', '/admin/app/content-editors/support',
    '/admin/app/locale-management', '/admin/app/settings', '/admin/app/under-construction',
  ]
  await visitAll(page, pages)
  // The remembered light theme is set by the one inline script of the admin layout, which must be allowed.
  await page.evaluate(() => localStorage.setItem('admin-theme', 'light'))
  const violations = await watchViolations(page)
  await page.goto('/admin/app/dashboard')
  expect(await violations()).toEqual([])
})

test('an inline script the page did not ship is refused by the policy', async ({ page }) => {
  const violations = await watchViolations(page)
  await page.goto('/login')
  const ran = await page.evaluate(() => {
    const s = document.createElement('script')
    s.textContent = 'window.__injected = true'
    document.body.append(s)
    return (window as unknown as { __injected?: boolean }).__injected === true
  })
  expect(ran).toBe(false)
  expect((await violations()).some((v) => /script-src/.test(v))).toBe(true)
})

test('no page can be framed by another site', async ({ page, baseURL }) => {
  const other = `<iframe id="f" src="${baseURL}/login"></iframe>`
  await page.route('http://framing.example/', (route) => route.fulfill({ contentType: 'text/html', body: other }))
  await page.goto('http://framing.example/')
  // A refused frame is replaced by the browser's error page; the login page never renders inside it.
  const framed = page.frames().find((f) => f !== page.mainFrame())!
  await expect.poll(() => framed.url(), { timeout: 10_000 }).not.toBe('about:blank')
  expect(framed.url()).not.toContain('/login')
  await expect(page.frameLocator('#f').getByRole('checkbox')).toHaveCount(0)
})

test.describe('return paths', () => {
  // Each of these, unchecked, makes Chromium leave the app when the back link is followed.
  const escapes = ['%2F%09%2Fevil.example%2Fpath', '%2F%0A%2Fevil.example%2Fpath', '%2F%0D%2Fevil.example', '%2F%5Cevil.example', '%5C%5Cevil.example', '%2F%2Fevil.example', 'https%3A%2F%2Fevil.example', 'javascript%3Aalert(1)']

  test('the settings and relations back links stay on this origin, whatever ?from= holds', async ({ page, baseURL }) => {
    await apiSignIn(page, newEmail('from'))
    const { characterId } = await onboardByApi(page)
    const origin = new URL(baseURL!).origin
    for (const from of escapes) {
      for (const path of ['/app/settings', `/app/characters/${characterId}/relations/edit`, `/app/characters/${characterId}/upload-chat-history`]) {
        await page.goto(`${path}?from=${from}`)
        const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
        // The support page's terms and privacy links point elsewhere by design; the back link must not.
        for (const href of hrefs.filter((h) => !/^mailto:|idealself\.app\/(terms|privacy)$/.test(h))) expect(new URL(href).origin, `${path}?from=${from} → ${href}`).toBe(origin)
      }
    }
    // Signed in, the login pages send the person on to the page they came for, never elsewhere.
    for (const from of escapes) {
      const response = await page.goto(`/login?redirect=${from}`)
      expect(new URL(page.url()).origin, `/login?redirect=${from}`).toBe(origin)
      expect(response?.status()).toBe(200)
    }
    // A real return path still works.
    await page.goto(`/app/settings?from=${encodeURIComponent('/app/settings/profile')}`)
    await expect(page.locator('a[href="/app/settings/profile"]').first()).toBeVisible()
  })
})

test('a top-level link on another site cannot sign the person out; the app itself can', async ({ page, baseURL }) => {
  await apiSignIn(page, newEmail('signout'))
  await page.route('http://attacker.example/', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<a id="go" href="${baseURL}/api/v1/auth/sign-out">win a prize</a>` }),
  )
  await page.goto('http://attacker.example/')
  await page.click('#go')
  await page.waitForLoadState()
  expect((await page.request.get('/api/v1/self')).status()).toBe(200)
  await page.goto('/app/settings')
  const out = await page.evaluate(async () => (await fetch('/api/v1/auth/sign-out')).status)
  expect(out).toBe(200)
  expect((await page.request.get('/api/v1/self')).status()).toBe(401)
})

test('the admin console shows who unlinked an account from Google and set its password, and when', async ({ page, browser, baseURL }) => {
  const person = await (await browser.newContext({ baseURL, locale: 'en-US' })).newPage()
  const user = await apiSignIn(person, newEmail('audited'))
  await credentialSignIn(page, ADMIN.email, ADMIN.password)
  for (const data of [{ isLinkedToOAuthAccount: false }, { password: 'Staff-set-Passw0rd!' }])
    expect((await page.request.patch(`/api/v1/users/${user.id}`, { data })).status()).toBe(200)
  await page.goto('/admin/app/users')
  const log = page.getByTestId('audit-log')
  const rows = log.locator('tbody tr').filter({ hasText: user.email })
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('Set a new password')
  await expect(rows.nth(1)).toContainText('Unlinked the account from Google')
  await expect(rows.nth(0)).toContainText(ADMIN.email)
  await expect(rows.nth(0).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/)
})
