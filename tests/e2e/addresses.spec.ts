// The app opened at 127.0.0.1 while PUBLIC_URL says localhost: subscribing and the forgot-password link work,
// and every link the server builds is on PUBLIC_URL.
import { expect } from '@playwright/test'
import { test, hydrated, newEmail } from './helpers'

test('opened at 127.0.0.1 with PUBLIC_URL on localhost: subscribing and password reset links work', async ({ page, baseURL }) => {
  const publicUrl = new URL(baseURL!)
  expect(publicUrl.hostname).toBe('localhost')
  const other = `http://127.0.0.1:${publicUrl.port}`

  // A new user signs in at 127.0.0.1, as someone typing that address would.
  await page.goto(`${other}/login`)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  const signIn = page.getByRole('dialog')
  await signIn.getByLabel('Email').fill(newEmail('loopback'))
  await signIn.getByLabel('Name').fill('Loopback User')
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${other}/app/**`)

  await page.goto(`${other}/app/settings/subscription`)
  const toEcpay = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.includes('/Cashier/AioCheckOut'))
  await page.getByRole('button', { name: 'Subscribe monthly' }).click()
  const form = new URLSearchParams((await toEcpay).postData() ?? '')
  expect(form.get('OrderResultURL')).toBe(`${publicUrl.origin}/api/v1/payments/ecpay/order-result`)
  expect(form.get('ReturnURL')).toBe(`${publicUrl.origin}/api/v1/payments/ecpay/return`)
  await expect(page.getByRole('button', { name: 'Pay' })).toBeVisible()
  await expect(page.getByText(/orderResultUrl must be/)).toHaveCount(0)
  await page.getByRole('button', { name: 'Pay' }).click()
  // The payment lands on PUBLIC_URL and is recorded for the account.
  await page.waitForURL((u) => u.origin === publicUrl.origin)
  const me = await (await page.request.get(`${other}/api/v1/self`)).json()
  expect(me.subscription).toMatchObject({ type: 'PREMIUM', provider: 'ECPAY' })

  // The admin's forgot-password form at 127.0.0.1 mails a link on PUBLIC_URL that works.
  await page.goto(`${other}/admin/forgot-password`)
  await hydrated(page)
  await page.getByLabel('Email').fill('admin@e2e.test')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Password reset requested — if the email is registered, you will receive a password reset link in your email')).toBeVisible()
  const { mails } = await (await page.request.get(`${other}/api/v1/dev/outbox`)).json()
  const mail = mails.find((m: { to: string; subject: string }) => m.to === 'admin@e2e.test' && /reset/i.test(m.subject))
  const link = /https?:\/\/\S+\/admin\/reset-password\?token=\S+/.exec(mail.text)![0]
  expect(new URL(link).origin).toBe(publicUrl.origin)
  await page.goto(link)
  await expect(page).toHaveURL(/\/admin\/reset-password\?token=/)
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible()
})
