// Chat and onboarding against a local server speaking Ollama's wire format (the replies are scripted).
import { expect, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { test, apiSignIn, chatRoomPath, credentialSignIn, newEmail, onboardByApi, onboardThroughUI } from './helpers'
import { controlPort } from '../../playwright.config'

const script = (body: object) => fetch(`http://127.0.0.1:${controlPort}/`, { method: 'POST', body: JSON.stringify(body) })

/** The hello message opens an empty conversation; sending waits until it is typed out. */
async function helloDone(page: Page) {
  await expect(page.getByRole('button', { name: 'Give feedback' }).first()).toBeVisible({ timeout: 20_000 })
  await expect(page.getByLabel('Message')).toBeEnabled()
}

async function openRoom(page: Page) {
  const ids = await onboardByApi(page)
  await page.goto(chatRoomPath(ids))
  await helloDone(page)
  return ids
}

test('onboarding with the Ollama model ends in the chat room', async ({ page }) => {
  await apiSignIn(page, newEmail('onb-ollama'))
  await onboardThroughUI(page, { name: 'Ava', description: 'A patient mentor', answers: ['I rush my decisions.', 'I would pause and ask one question first.'] })
  await expect(page.getByRole('heading', { name: 'Ideal Self' })).toBeVisible()
})

test('a reply streams in; Enter sends and the limit counter holds', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  await script({ chunks: ['Breathe ', 'in, ', 'then ', 'speak.'], chunkDelayMs: 150 })
  await page.getByLabel('Message').fill('I am nervous')
  await page.getByLabel('Message').press('Enter')
  const last = page.locator('.msg-bot').last()
  await expect(last).toContainText('Breathe', { timeout: 10_000 })
  await expect(last).toContainText('Breathe in, then speak.')
  await expect(page.locator('.msg-user').last()).toHaveText(/I am nervous/)
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})

test('Ctrl+Enter adds a line instead of sending', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  const input = page.getByLabel('Message')
  await input.fill('first line')
  await input.press('Control+Enter')
  await input.pressSequentially('second line')
  await expect(input).toHaveValue('first line\nsecond line')
  await expect(page.locator('.msg-user')).toHaveCount(0)
})

test('a reload mid-reply shows the reply completing', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  await script({ text: 'One slow and thoughtful answer that takes a while to arrive.', chunkDelayMs: 900 })
  await page.getByLabel('Message').fill('Tell me slowly')
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.msg-bot').last()).toContainText('One', { timeout: 10_000 })
  await page.reload()
  // It streams on after the reload (from whichever instance the request reaches), not only once it is complete:
  // part of it shows before its end has arrived.
  const bubble = page.locator('.msg-bot').last()
  await expect
    .poll(async () => {
      const text = (await bubble.textContent()) ?? ''
      return text.includes('thoughtful') && !text.includes('arrive.')
    }, { timeout: 15_000, intervals: [50] })
    .toBe(true)
  await expect(bubble).toContainText('takes a while to arrive.', { timeout: 20_000 })
})

test('a model failure rolls the message back with the error dialog', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  await script({ status: 500, error: 'model crashed' })
  await page.getByLabel('Message').fill('Will this work?')
  await page.getByLabel('Message').press('Enter')
  const dialog = page.getByRole('alertdialog')
  await expect(dialog).toContainText('No response is returned from the bot, please try again later')
  await dialog.getByRole('button').click()
  await expect(page.locator('.msg-user')).toHaveCount(0)
})

test('older messages load 15 at a time when scrolling up', async ({ page }) => {
  await apiSignIn(page)
  const ids = await onboardByApi(page)
  for (let i = 1; i <= 20; i++) {
    const res = await page.request.post(`/api/v1/chatbots/conversations/${ids.conversationId}/character/${ids.characterId}/chat?sse=false`, {
      data: { text: `message number ${i}`, currentDateTime: 'Sunday 2026-11-22 10:00:00' },
    })
    expect(res.status()).toBe(200)
  }
  await page.goto(chatRoomPath(ids))
  await expect(page.locator('.msg')).toHaveCount(15)
  await expect(page.locator('.msg-user').last()).toHaveText(/message number 20/)
  await page.locator('.chat-scroll').evaluate((el) => (el.scrollTop = 0))
  await expect(page.locator('.msg')).toHaveCount(30)
  await page.locator('.chat-scroll').evaluate((el) => (el.scrollTop = 0))
  await expect(page.locator('.msg')).toHaveCount(40)
  await expect(page.locator('.msg-user').first()).toHaveText(/message number 1$/)
  await expect(page.locator('.day-divider').first()).toBeVisible()
})

test('images attach; a file that is not really an image is removed with "Failed to upload file"', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
  await page.getByTestId('file-input').setInputFiles([
    { name: 'fine.png', mimeType: 'image/png', buffer: png },
    { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') },
  ])
  await expect(page.getByText('Failed to upload file')).toBeVisible()
  await expect(page.locator('.attachments li')).toHaveCount(1)
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.locator('.msg-user .msg-files img')).toHaveCount(1)
  await expect(page.locator('.msg-bot').last()).toContainText('with 1 image', { timeout: 10_000 })
})

test('the free allowance: strip at 5 or fewer, the wrap dialog at 0, then the renewal strip', async ({ page }) => {
  await credentialSignIn(page, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
  const ids = await onboardByApi(page)
  const me = await (await page.request.get('/api/v1/self')).json()
  await page.request.patch('/api/v1/self/message-limit', { data: { count: me.messageLimit.limit - 2 } })
  await page.goto(chatRoomPath(ids))
  await helloDone(page)
  await expect(page.getByText('2 messages left')).toBeVisible()
  await page.getByLabel('Message').fill('one')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('1 message left')).toBeVisible()
  await expect(page.locator('.msg-bot').last()).not.toBeEmpty()
  await page.getByLabel('Message').fill('two')
  await page.getByLabel('Message').press('Enter')
  const wrap = page.getByRole('dialog', { name: "That's a wrap!" })
  await expect(wrap).toBeVisible()
  await expect(wrap.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/app/settings/subscription')
  await wrap.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('link', { name: 'Get more' })).toBeVisible()
  await expect(page.getByLabel('Message')).toBeDisabled()
  // The server holds the line too.
  const refused = await page.request.post(`/api/v1/chatbots/conversations/${ids.conversationId}/character/${ids.characterId}/chat?sse=false`, {
    data: { text: 'three', currentDateTime: 'Sunday 2026-11-22 10:00:00' },
  })
  expect(refused.status()).toBe(403)
  await page.request.patch('/api/v1/self/message-limit', { data: { count: 0 } })
})

test('feedback on a reply', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  await page.getByRole('button', { name: 'Give feedback' }).first().click()
  const dialog = page.getByRole('dialog', { name: "Real talk — how'd that land for you?" })
  await expect(dialog.getByRole('button', { name: 'Send Thoughts' })).toBeDisabled()
  await dialog.getByLabel('Your thoughts').fill('This helped a lot')
  await dialog.getByRole('button', { name: 'Send Thoughts' }).click()
  const thanks = page.getByRole('dialog', { name: 'Got it! Your Feedback is Helpful.' })
  await thanks.getByRole('button', { name: 'Keep Chatting' }).click()
  await expect(thanks).toBeHidden()
})

test('the character dev tool saves a prompt for ADMIN and DEVELOPER only', async ({ page, browser }) => {
  await credentialSignIn(page, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
  const ids = await onboardByApi(page)
  await page.goto(chatRoomPath(ids))
  await helloDone(page)
  await page.getByTestId('character-dev-tool').click()
  const dialog = page.getByRole('dialog', { name: 'Character Dev Tool' })
  const save = dialog.getByRole('button', { name: /Save · System Prompt/ })
  await expect(save).toBeDisabled()
  await dialog.getByLabel('System Prompt').fill('You are my calm future self. Always answer in one sentence.')
  await expect(save).toBeEnabled()
  await save.click()
  await expect(page.getByText('Character prompt saved')).toBeVisible()
  const c = await (await page.request.get(`/api/v1/chatbots/characters/${ids.characterId}?includePrompt=true`)).json()
  expect(c.prompt).toBe('You are my calm future self. Always answer in one sentence.')

  const regular = await browser.newPage({ baseURL: test.info().project.use.baseURL })
  await apiSignIn(regular)
  await regular.goto(chatRoomPath(await onboardByApi(regular)))
  await expect(regular.getByTestId('character-dev-tool')).toHaveCount(0)
  await regular.close()
})

test('replies render Markdown, never raw HTML', async ({ page }) => {
  await apiSignIn(page)
  await openRoom(page)
  await script({ text: 'Try **one small step**.\n\n<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>' })
  await page.getByLabel('Message').fill('Help me start')
  await page.getByLabel('Message').press('Enter')
  const last = page.locator('.msg-bot').last()
  await expect(last.locator('strong')).toHaveText('one small step')
  await expect(last).toContainText('<img src=x')
  await expect(last.locator('img, script')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
})
