import { test as base, expect, type Page } from '@playwright/test'

/** Waits until every island on the page has hydrated (Astro drops `ssr` from an island once it has). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'), undefined, { timeout: 20_000 })
}

/**
 * Journeys act the moment a page opens; on a loaded machine an island may not have hydrated yet, and a click
 * would be lost. `page.goto` here returns once the page's islands are live.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page)
    page.goto = async (url, options) => {
      const response = await goto(url, options)
      await hydrated(page)
      return response
    }
    await use(page)
  },
})

let n = 0
export const newEmail = (tag = 'e2e') => `${tag}-${Date.now().toString(36)}-${++n}@example.com`

/** Signs in through the login page and the development identity provider, as a new user would. */
export async function devSignIn(page: Page, email = newEmail(), name = 'Playwright User') {
  await page.goto('/login')
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: /Continue with Google|使用 Google 繼續|使用 Google 继续/ }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel(/Email|電子郵件|电子邮箱/).fill(email)
  await dialog.getByLabel(/^(Name|名字)$/).fill(name)
  await dialog.getByRole('button', { name: /Sign in|登入|登录/ }).click()
  await page.waitForURL((u) => u.pathname.startsWith('/app/'))
  return email
}

/** Signs in by API only (fast setup for journeys that are not about signing in). */
export async function apiSignIn(page: Page, email = newEmail(), name = 'Playwright User') {
  const tokenRes = await page.request.post('/api/v1/auth/dev/token', { data: { email, name } })
  const { idToken } = await tokenRes.json()
  const res = await page.request.post('/api/v1/auth/login/oauth', { data: { idToken, strategy: 'google', isWeb: true } })
  expect(res.status()).toBe(200)
  return (await res.json()).user
}

export async function credentialSignIn(page: Page, email: string, password: string) {
  const res = await page.request.post('/api/v1/auth/login/credential', { data: { username: email, password, isWeb: true } })
  expect(res.status()).toBe(200)
  return (await res.json()).user
}

const TEXT = {
  ENUS: { hi: 'Hi!', yes: "Yes, that's me", describe: 'This is who I want to become', answer: 'Your answer', submit: 'Submit', meet: 'Meet your Ideal Self', skip: 'Skip for now', enter: 'Enter Space' },
  ZHTW: { hi: '嗨！', yes: '是的，就是我', describe: '這就是我想成為的人', answer: '你的回答', submit: '送出', meet: '認識你的理想自我', skip: '先跳過', enter: '進入空間' },
} as const

/** Walks the whole onboarding in the browser, as a new user does, and ends in the chat room. */
export async function onboardThroughUI(page: Page, opts: { lang?: 'ENUS' | 'ZHTW'; name: string; description: string; answers: string[] }) {
  const tx = TEXT[opts.lang ?? 'ENUS']
  // The fastest typing the dev tools allow (20 ms a character) keeps the journey short; the flow is the same.
  await page.addInitScript(() => localStorage.setItem('typingSpeedOverride', '20'))
  await page.goto('/app/select-character')
  await expect(page).toHaveURL(/step=get-username$/)
  await hydrated(page)
  await expect(page.getByRole('progressbar').first()).toHaveAttribute('aria-valuenow', '0')
  const hi = page.getByRole('button', { name: tx.hi })
  await page.getByRole('textbox').fill('')
  await expect(hi).toBeDisabled()
  await page.getByRole('textbox').fill(opts.name)
  await hi.click()
  await expect(page).toHaveURL(/name-confirmation$/)
  await hydrated(page)
  await page.getByRole('button', { name: tx.yes }).click()
  await expect(page).toHaveURL(/generate-ideal-self-description$/)
  await hydrated(page)
  await page.getByRole('textbox').fill(opts.description)
  await page.getByRole('button', { name: tx.describe }).click()
  await expect(page).toHaveURL(/before-conversation-start$/)
  await expect(page).toHaveURL(/interaction-conversation-start$/, { timeout: 40_000 })
  await hydrated(page)
  for (const answer of opts.answers) {
    const submit = page.getByRole('button', { name: tx.submit })
    await expect(submit).toBeDisabled()
    await page.getByLabel(tx.answer).fill(answer)
    await expect(submit).toBeEnabled()
    await submit.click()
    await expect(page.getByText(answer, { exact: true })).toBeVisible()
  }
  // The analyzing screen stays until the character is ready, which can take no time at all.
  await expect(page).toHaveURL(/interaction-analyzing$|meet-your-ideal-self-enter$/, { timeout: 20_000 })
  await expect(page).toHaveURL(/meet-your-ideal-self-enter$/, { timeout: 60_000 })
  await hydrated(page)
  await page.getByRole('button', { name: tx.meet }).click()
  await expect(page).toHaveURL(/meet-your-ideal-self-introduction/)
  await hydrated(page)
  await page.getByRole('link', { name: tx.skip }).click({ timeout: 40_000 })
  await expect(page).toHaveURL(/\/app\/select-character$/)
  await hydrated(page)
  await page.getByRole('button', { name: tx.enter }).click()
  await expect(page).toHaveURL(/\/app\/conversations\/[^/]+\/character\/[^/]+$/)
  await hydrated(page)
}

/** Onboarding through the API only (fast setup for chat journeys); returns the character id once it is ready. */
export async function onboardByApi(page: Page, opts: { name?: string; description?: string } = {}) {
  const post = (path: string, data: unknown) => page.request.post(`/api/v1${path}`, { data })
  await post('/chatbots/training-data/user-name', { userName: opts.name ?? 'Rin' })
  await post('/chatbots/training-data/improved-ideal-self-description', { idealSelfDescription: opts.description ?? 'A steady, kind leader' })
  const created = await (await page.request.post('/api/v1/chatbots/characters?skipChatHistoryUpload=true', {
    data: { userName: opts.name ?? 'Rin', idealSelfDescription: opts.description ?? 'A steady, kind leader' },
  })).json()
  await expect.poll(async () => (await (await page.request.get(`/api/v1/chatbots/characters/${created.characterId}`)).json()).isReady, { timeout: 60_000 }).toBe(true)
  const conversation = await (await post('/chatbots/conversations', { name: `Ideal Self ${new Date().toISOString()}`, characterId: created.characterId })).json()
  return { characterId: created.characterId as string, conversationId: conversation.conversationId as string }
}

/** The chat room of a conversation. */
export const chatRoomPath = (ids: { conversationId: string; characterId: string }) => `/app/conversations/${ids.conversationId}/character/${ids.characterId}`

/** Opens a chat room and waits until its history is shown and the composer takes text. */
export async function openChatRoom(page: Page, ids: { conversationId: string; characterId: string }) {
  await page.goto(chatRoomPath(ids))
  await expect(page.getByRole('button', { name: 'Give feedback' }).first()).toBeVisible({ timeout: 20_000 })
  await expect(page.getByLabel('Message')).toBeEnabled()
}

/** Sends a message with Enter and waits for the whole reply (its feedback control appears once it is saved). */
export async function sendAndAwaitReply(page: Page, text: string) {
  const replies = await page.locator('.msg-bot').count()
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.msg-bot')).toHaveCount(replies + 1)
  await expect(page.locator('.msg-bot').last().getByRole('button', { name: 'Give feedback' })).toBeVisible({ timeout: 20_000 })
}

/** The end-user pages after onboarding, the ones the layout journeys check on every viewport. */
export function appPages(ids: { conversationId: string; characterId: string }): string[] {
  return [
    '/app/select-character',
    chatRoomPath(ids),
    `/app/characters/${ids.characterId}/upload-chat-history`,
    `/app/characters/${ids.characterId}/relations/edit`,
    '/app/settings',
    '/app/settings/profile',
    '/app/settings/memories',
    '/app/settings/help',
    '/app/settings/subscription',
    '/app/settings/customer-support',
  ]
}
