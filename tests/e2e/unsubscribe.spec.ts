// Cancelling a subscription when the cancel call fails: spec §8's dialog, the button usable again, a retry works.
import { expect } from '@playwright/test'
import { test, apiSignIn } from './helpers'

const FAILED = 'Something went wrong while unsubscribing, please try again later.'

test('a failed cancel shows the unsubscribing error, the button works again, and a retry cancels', async ({ page }) => {
  await apiSignIn(page)
  await page.goto('/app/settings/subscription')
  await page.getByRole('button', { name: 'Subscribe monthly' }).click()
  await page.getByRole('button', { name: 'Pay' }).click()
  await page.getByRole('alertdialog').getByRole('button').click()
  await expect(page).toHaveURL(/\/app\/settings\/subscription$/)
  await expect(page.getByTestId('premium-status')).toContainText('Renews on')

  // The first attempt never reaches the server (the network drops), the second meets a server error.
  const failures: Array<'network' | 500> = ['network', 500]
  await page.route('**/api/v1/payments/cancel-subscription/**', async (route) => {
    const next = failures.shift()
    if (next === 'network') await route.abort('internetdisconnected')
    else if (next === 500) await route.fulfill({ status: 500, json: { statusCode: 500, error: 'InternalServerError', message: 'ECPay did not answer' } })
    else await route.continue()
  })

  for (let attempt = 0; attempt < 2; attempt++) {
    const cancel = page.getByRole('button', { name: 'Cancel Subscription' })
    await expect(cancel).toBeEnabled()
    await cancel.click()
    const confirm = page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' })
    await expect(confirm).toBeEnabled()
    await confirm.click()
    const alert = page.getByRole('alertdialog')
    await expect(alert).toBeVisible()
    await expect(alert).toContainText(FAILED)
    await expect(alert.getByRole('button', { name: 'OK' })).toBeFocused()
    await alert.getByRole('button', { name: 'OK' }).click()
    await expect(alert).toHaveCount(0)
    // Nothing changed: still renewing, and the subscription is still there to cancel.
    await expect(page.getByTestId('premium-status')).toContainText('Renews on')
    expect((await (await page.request.get('/api/v1/self')).json()).subscription.autoRenew).toBe(true)
  }

  await page.getByRole('button', { name: 'Cancel Subscription' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click()
  const grateful = page.getByRole('dialog', { name: 'Grateful for your journey' })
  await expect(grateful).toContainText('Premium stays active until')
  await grateful.getByRole('button', { name: 'OK' }).click()
  await expect(page.getByTestId('premium-status')).toContainText('Premium is active until')
  expect((await (await page.request.get('/api/v1/self')).json()).subscription).toMatchObject({ type: 'PREMIUM', autoRenew: false })
})
