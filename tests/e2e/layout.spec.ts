// Every page at a phone, a tablet and a desktop size: layout assertions (layoutCheck.ts) and axe.
import { expect, type Page } from '@playwright/test'
import { test, apiSignIn, appPages, credentialSignIn, hydrated, onboardByApi } from './helpers'
import { pageFindings, VIEWPORTS } from './layoutCheck'

async function visit(page: Page, path: string) {
  await page.goto(path)
  await hydrated(page)
  // Entrance animations settle before anything is measured.
  await page.waitForTimeout(700)
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } })

    test('the end-user pages', async ({ page }) => {
      const findings: string[] = []
      await visit(page, '/login')
      // The logo shows for 3 s, then the login fades in.
      await page.waitForTimeout(3600)
      findings.push(...(await pageFindings(page, '/login')))
      await apiSignIn(page)
      await visit(page, '/app/onboarding?step=get-username')
      findings.push(...(await pageFindings(page, 'onboarding')))
      const ids = await onboardByApi(page)
      for (const path of appPages(ids)) {
        await visit(page, path)
        findings.push(...(await pageFindings(page, path.replace(/[0-9a-f-]{36}/g, ':id'))))
      }
      expect(findings).toEqual([])
    })

    test('the admin pages', async ({ page }) => {
      const findings: string[] = []
      for (const path of ['/admin/login', '/admin/forgot-password']) {
        await visit(page, path)
        findings.push(...(await pageFindings(page, path)))
      }
      await credentialSignIn(page, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
      for (const path of ['/admin/app/dashboard', '/admin/app/users', '/admin/app/content-editors', '/admin/app/content-editors/relationship-types', '/admin/app/locale-management', '/admin/app/settings']) {
        await visit(page, path)
        findings.push(...(await pageFindings(page, path)))
      }
      expect(findings).toEqual([])
    })
  })
}
