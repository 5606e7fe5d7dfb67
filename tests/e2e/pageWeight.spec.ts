// The JavaScript each page loads before the person does anything, gzipped, within its budget (bench/pageJs.ts):
// login ≤ 20 KB, the chat room ≤ 110 KB, every other app page ≤ 120 KB, every admin page ≤ 140 KB. Sizes of a
// build are exact, so this is a test rather than a benchmark; bench/bundle.ts lists what weighs most.
import { expect } from '@playwright/test'
import type { Page as CorePage } from 'playwright-core'
import { test, apiSignIn, credentialSignIn, onboardByApi } from './helpers'
import { jsBeforeInteraction, pageCases, type PageCase } from '../../bench/pageJs'

test('every page loads no more JavaScript before interaction than its budget', async ({ page, browser }) => {
  test.setTimeout(480_000)
  const over: string[] = []
  const measured: string[] = []
  const measure = async (p: typeof page, c: PageCase) => {
    const { gzip, scripts } = await jsBeforeInteraction(p as unknown as CorePage, c.path)
    const kb = gzip / 1024
    measured.push(`${c.label} ${kb.toFixed(1)} KB`)
    if (kb > c.target) over.push(`${c.label} (${c.path}): ${kb.toFixed(1)} KB > ${c.target} KB in ${scripts.length} scripts`)
    // Every page that hydrates an island loads something; a page measured as 0 would mean nothing was seen.
    if (c.path !== '/app/payments/result') expect(scripts.length, c.label).toBeGreaterThan(0)
  }
  const signedOut = pageCases({ characterId: '', conversationId: '' })
  for (const c of signedOut.signedOut) await measure(page, c)
  await apiSignIn(page)
  for (const c of signedOut.onboarding) await measure(page, c)
  const ids = await onboardByApi(page)
  for (const c of pageCases(ids).user) await measure(page, c)
  const admin = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage()
  await credentialSignIn(admin, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
  for (const c of signedOut.admin) await measure(admin, c)
  console.log(measured.join('\n'))
  expect(over).toEqual([])
})
