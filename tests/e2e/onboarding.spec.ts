import { expect } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, apiSignIn, onboardThroughUI, newEmail } from './helpers'

test('a new user completes onboarding in English and meets a character built from what they wrote', async ({ page }) => {
  await apiSignIn(page, newEmail('onb-en'), 'Signup Name')
  await onboardThroughUI(page, {
    name: 'Mei',
    description: 'A calm designer who speaks up in meetings',
    answers: ['I freeze when my manager asks me to present.', 'I would breathe and start with one clear sentence.'],
  })
  // The chat opens with the Ideal Self's hello.
  await expect(page.locator('.msg-bot').first()).not.toBeEmpty({ timeout: 20_000 })
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
  const me = await (await page.request.get('/api/v1/self')).json()
  expect(me.onboardingData.isCompleted).toBe(true)
})

test('a new user completes onboarding in Traditional Chinese', async ({ page, context }) => {
  await context.addCookies([{ name: 'lang', value: 'ZHTW', url: test.info().project.use.baseURL! }])
  await apiSignIn(page, newEmail('onb-tw'))
  await onboardThroughUI(page, {
    lang: 'ZHTW',
    name: '小美',
    description: '一個能在會議中勇敢發言、冷靜的設計師',
    answers: ['主管要我簡報的時候我會僵住。', '我會先深呼吸，然後說出第一句清楚的話。'],
  })
  await expect(page.getByRole('heading', { name: '理想自我' })).toBeVisible()
})

test('onboarding resumes at the saved step, and unknown steps go back to it', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/onboarding?step=get-username')
  await page.getByRole('textbox').fill('Kai')
  await page.getByRole('button', { name: 'Hi!' }).click()
  await expect(page).toHaveURL(/name-confirmation$/)
  await page.goto('/app/onboarding')
  await expect(page).toHaveURL(/name-confirmation$/)
  await page.goto('/app/onboarding?step=meet-nobody')
  await expect(page).toHaveURL(/name-confirmation$/)
})

test('the description step rotates example hints and keeps the idealSd prefill', async ({ page }) => {
  await page.goto('/login?idealSd=A%20fearless%20writer')
  await expect(page).toHaveURL(/\/login$/)
  await apiSignIn(page)
  await page.goto('/app/onboarding?step=story-telling-interaction-generate-ideal-self-description')
  await expect(page.getByRole('textbox')).toHaveValue('A fearless writer')
  const hint = page.locator('.hint')
  const first = await hint.textContent()
  await expect(hint).not.toHaveText(first!, { timeout: 8000 })
})
