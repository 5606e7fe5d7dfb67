import { expect } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, apiSignIn } from './helpers'

test('a free user subscribes yearly through ECPay, becomes Premium, then cancels and keeps Premium', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/settings/subscription')
  await expect(page.getByText('100 messages every week')).toBeVisible()
  await expect(page.getByText('$300')).toBeVisible()
  await expect(page.getByText('$348')).toBeVisible()
  await expect(page.getByText('Save $48/year')).toBeVisible()
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])

  await page.getByRole('button', { name: 'Subscribe yearly' }).click()
  // The local ECPay stand-in shows its card page; paying posts the signed notifications back.
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page).toHaveURL(/\/app\/subscription\?success=true/)
  const alert = page.getByRole('alertdialog')
  await expect(alert).toContainText('Payment successful')
  await alert.getByRole('button').click()
  await expect(page).toHaveURL(/\/app\/settings\/subscription$/)
  await expect(page.getByTestId('premium-status')).toContainText('Renews on')

  const me = await (await page.request.get('/api/v1/self')).json()
  expect(me.subscription).toMatchObject({ type: 'PREMIUM', autoRenew: true, provider: 'ECPAY' })

  await page.getByRole('button', { name: 'Cancel Subscription' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click()
  const grateful = page.getByRole('dialog', { name: 'Grateful for your journey' })
  await expect(grateful).toContainText('Premium stays active until')
  await grateful.getByRole('button', { name: 'OK' }).click()
  await expect(page.getByTestId('premium-status')).toContainText('Premium is active until')
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0)
  const after = await (await page.request.get('/api/v1/self')).json()
  expect(after.subscription).toMatchObject({ type: 'PREMIUM', autoRenew: false, provider: 'ECPAY' })
})

test('a declined payment returns with "Payment failed"', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/settings/subscription')
  await page.getByRole('button', { name: 'Subscribe monthly' }).click()
  await page.getByRole('button', { name: 'Decline' }).click()
  await expect(page.getByRole('alertdialog')).toContainText('Payment failed')
})
