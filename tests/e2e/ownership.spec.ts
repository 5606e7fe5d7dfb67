// The person's data is theirs, tried as a new user would: download everything and open the archive, delete the
// account and find nothing left, and bring a character card in from elsewhere.
import { readFileSync } from 'node:fs'
import { expect, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { unzipSync, strFromU8 } from 'fflate'
import postgres from 'postgres'
import { test, apiSignIn, credentialSignIn, newEmail, onboardByApi } from './helpers'

const NOW = 'Sunday 2026-11-22 10:30:00'
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

async function noSeriousA11yViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
}

/** A person who has talked, with an image, and said something only they said. */
async function personWithHistory(page: Page, tag: string) {
  const user = await apiSignIn(page, newEmail(`own-${tag}`), `Owner ${tag}`)
  const ids = await onboardByApi(page)
  const upload = await page.request.post('/api/v1/self/file', { multipart: { file: { name: 'photo.png', mimeType: 'image/png', buffer: PNG } } })
  const file = await upload.json()
  const secret = `the harbour secret ${tag}`
  const sent = await page.request.post(`/api/v1/chatbots/conversations/${ids.conversationId}/character/${ids.characterId}/chat?sse=false`, {
    data: { text: secret, currentDateTime: NOW, files: [{ id: file.id }] },
  })
  expect(sent.status()).toBe(200)
  return { user, ids, fileId: file.id as string, secret }
}

test('Download my data: the archive is built with progress, downloads in the browser and holds every conversation and image', async ({ page }) => {
  const { ids, fileId, secret } = await personWithHistory(page, 'zip')
  await page.goto('/app/settings')
  await page.getByRole('link', { name: 'Download my data' }).click()
  await expect(page).toHaveURL(/\/app\/settings\/data$/)
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible()
  await page.getByRole('button', { name: 'Download my data' }).click()
  const link = page.getByRole('link', { name: 'Download archive' })
  await expect(link).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText(/Your archive is ready \(.+\)\. The link works until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\./)).toBeVisible()
  await noSeriousA11yViolations(page)

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(/^ideal-self-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)))
  expect(strFromU8(files['README.txt'])).toContain('Ideal Self — your data')
  const conversation = Object.keys(files).find((n) => n.endsWith(`${ids.conversationId}.json`))!
  const messages = JSON.parse(strFromU8(files[conversation])).messages
  expect(messages.map((m: any) => m.text)).toContain(secret)
  expect(strFromU8(files[conversation.replace(/\.json$/, '.md')])).toContain(secret)
  expect(Buffer.from(files[`images/${fileId}.png`])).toEqual(PNG)
  expect(JSON.parse(strFromU8(files['characters.json']))[0].id).toBe(ids.characterId)

  // Built again on request: a new archive replaces the old link.
  await page.getByRole('button', { name: 'Build a new archive' }).click()
  await expect(page.getByRole('link', { name: 'Download archive' })).toBeVisible({ timeout: 30_000 })
})

test('the data page speaks Traditional Chinese, and so does the README', async ({ page, baseURL }) => {
  await personWithHistory(page, 'tw')
  await page.context().addCookies([{ name: 'lang', value: 'ZHTW', url: baseURL! }])
  await page.goto('/app/settings/data')
  await expect(page.getByRole('heading', { name: '你的資料' })).toBeVisible()
  await page.getByRole('button', { name: '下載我的資料' }).click()
  const link = page.getByRole('link', { name: '下載封存檔' })
  await expect(link).toBeVisible({ timeout: 30_000 })
  const zip = unzipSync(new Uint8Array(await (await page.request.get((await link.getAttribute('href'))!)).body()))
  expect(strFromU8(zip['README.txt'])).toContain('Ideal Self — 你的資料')
})

test('deleting the account in the browser leaves nothing of the person anywhere', async ({ page, browser }) => {
  const { user, fileId, secret } = await personWithHistory(page, 'gone')
  await page.request.post('/api/v1/self/data-exports', { data: {} })
  await expect.poll(async () => (await (await page.request.get('/api/v1/self/data-exports/latest')).json()).status, { timeout: 30_000 }).toBe('READY')
  const latest = await (await page.request.get('/api/v1/self/data-exports/latest')).json()

  await page.goto('/app/settings/profile')
  await page.getByRole('button', { name: 'Delete Account' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Confirmation phrase').fill('DELETE-MY-ACCOUNT')
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page).toHaveURL(/\/login$/)

  // Staff find no account; the old links lead nowhere.
  const staff = await browser.newContext({ baseURL: new URL(page.url()).origin })
  const admin = await staff.newPage()
  await credentialSignIn(admin, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
  const found = await (await admin.request.get(`/api/v1/users?q=${encodeURIComponent(user.email)}`)).json()
  expect(found.total).toBe(0)
  await staff.close()
  expect((await page.request.get(`/api/v1/files/${fileId}`)).status()).toBe(401)

  // Signing in again with the same Google account starts from nothing.
  await apiSignIn(page, user.email, 'Back again')
  expect(await (await page.request.get('/api/v1/chatbots/characters')).json()).toEqual([])
  expect((await page.request.get(`/api/v1/files/${fileId}`)).status()).toBe(404)
  expect((await page.request.get(latest.downloadUrl)).status()).toBe(404)
  const memories = await (await page.request.get('/api/v1/memories')).json()
  expect(memories.total).toBe(0)

  // With the journey server on PostgreSQL, every column of every table is searched too.
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL)
    url.pathname = `${url.pathname}_e2e_${process.env.E2E_PORT ?? 4399}`
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
    try {
      const columns = await sql<{ table_name: string; column_name: string }[]>`
        select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`
      const traces: string[] = []
      for (const { table_name, column_name } of columns)
        for (const needle of [user.id, secret]) {
          const [row] = await sql.unsafe(`select count(*)::int as n from "${table_name}" where strpos("${column_name}"::text, $1) > 0`, [needle])
          if (row.n) traces.push(`${table_name}.${column_name}`)
        }
      expect(traces).toEqual([])
    } finally {
      await sql.end()
    }
  }
})

test('a character card from another front-end imports in the browser; a broken one says what is wrong', async ({ page }) => {
  await apiSignIn(page, newEmail('card'))
  await onboardByApi(page)
  await page.goto('/app/select-character')
  const importButton = page.getByRole('button', { name: 'Import a character card' })
  await expect(importButton).toBeVisible()
  await expect(page.getByText('A Character Card V2 or V3 file (.json or .png) from Ideal Self or another app.')).toBeVisible()

  let [chooser] = await Promise.all([page.waitForEvent('filechooser'), importButton.click()])
  await chooser.setFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"spec":"chara_card_v3","data":{"description":"no name"}}') })
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to import the card, error: data.name is required' })).toBeVisible()

  ;[chooser] = await Promise.all([page.waitForEvent('filechooser'), importButton.click()])
  await chooser.setFiles(new URL('../fixtures/cards/seraphina-v3.json', import.meta.url).pathname)
  await expect(page.locator('.landing')).toHaveAttribute('data-character-name', 'Seraphina', { timeout: 20_000 })
  await noSeriousA11yViolations(page)

  // The imported character exports again as a card other front-ends read, as JSON and as PNG.
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export card (JSON)' }).click()])
  const card = JSON.parse(readFileSync((await json.path())!, 'utf8'))
  expect(card).toMatchObject({ spec: 'chara_card_v3', data: { name: 'Seraphina', first_mes: expect.stringContaining("You're safe now") } })
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export card (PNG)' }).click()])
  const bytes = readFileSync((await png.path())!)
  expect(bytes.subarray(1, 4).toString()).toBe('PNG')
  expect(bytes.includes(Buffer.from('ccv3'))).toBe(true)

  // Its chat opens with the card's own first message.
  await page.getByRole('button', { name: 'Enter Space' }).click()
  await expect(page.locator('.msg-bot').first()).toContainText("You're safe now", { timeout: 20_000 })
})
