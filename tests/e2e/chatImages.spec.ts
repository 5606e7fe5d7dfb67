// Images sent with a message show at once (the local preview, then the served file) and never as a broken image,
// over the streamed reply and over the plain JSON reply (?sse=false), on a phone and on a desktop.
import { expect, type Page } from '@playwright/test'
import { deflateSync } from 'node:zlib'
import { test, apiSignIn, onboardByApi } from './helpers'

/** A real, visible PNG (a 24×24 square of one colour), so a broken image cannot pass for a loaded one. */
function png(rgb: [number, number, number]) {
  const size = 24
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8
  header[9] = 2
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))])
}

/** Every image of the locator has loaded with real pixels (a broken or revoked image has naturalWidth 0). */
async function allLoaded(page: Page, selector: string) {
  return page.$$eval(selector, (imgs) => imgs.length > 0 && imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))
}

async function openRoom(page: Page, query = '') {
  await apiSignIn(page)
  const ids = await onboardByApi(page)
  const failed: string[] = []
  page.on('response', (r) => r.url().includes('/api/v1/files/') && r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`))
  page.on('requestfailed', (r) => r.url().startsWith('blob:') && failed.push(`blob failed ${r.url()}`))
  await page.goto(`/app/conversations/${ids.conversationId}/character/${ids.characterId}${query}`)
  await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(1, { timeout: 20_000 })
  await expect(page.getByLabel('Message')).toBeEnabled({ timeout: 20_000 })
  return { ids, failed }
}

async function attach(page: Page, count: number) {
  const colours: [number, number, number][] = [[200, 40, 40], [40, 160, 60], [40, 60, 200]]
  await page.getByTestId('file-input').setInputFiles(colours.slice(0, count).map((c, i) => ({ name: `photo-${i}.png`, mimeType: 'image/png', buffer: png(c) })))
  await expect(page.locator('.attachments li')).toHaveCount(count)
  await expect(page.locator('.attachments .is-uploading')).toHaveCount(0)
}

const viewports = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
]

for (const { name, viewport } of viewports) {
  for (const sse of [true, false]) {
    test(`${name}, ${sse ? 'streamed reply' : '?sse=false'}: sent images show at once and after the reply, and after a reload`, async ({ page }) => {
      await page.setViewportSize(viewport)
      const { failed } = await openRoom(page, sse ? '' : '?sse=false')
      await attach(page, 2)
      await page.getByLabel('Message').fill('Look at these')
      const request = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/chat'))
      await page.getByRole('button', { name: 'Send' }).click()
      const response = await (await request).response()
      expect(response!.headers()['content-type']).toContain(sse ? 'text/event-stream' : 'application/json')
      expect(new URL(response!.url()).searchParams.get('sse')).toBe(sse ? null : 'false')

      const sent = page.locator('.msg-user').last()
      await expect(sent).toContainText('Look at these')
      await expect(sent.locator('img')).toHaveCount(2)
      // At once: the bubble shows the pictures the person picked while the reply is still on its way.
      await expect.poll(() => allLoaded(page, '.msg-user img')).toBe(true)
      // The reply arrives, and the pictures are then the served files, loaded.
      await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(2, { timeout: 20_000 })
      await expect(sent.locator('img').first()).toHaveAttribute('src', /^\/api\/v1\/files\//)
      await expect.poll(() => allLoaded(page, '.msg-user img')).toBe(true)

      // An image with no text is a message too: its bubble shows the picture, not an empty bubble.
      await attach(page, 1)
      await page.getByRole('button', { name: 'Send' }).click()
      const onlyImage = page.locator('.msg-user').last()
      await expect(onlyImage.locator('img')).toHaveCount(1)
      await expect(onlyImage.locator('.msg-text')).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(3, { timeout: 20_000 })
      await expect.poll(() => allLoaded(page, '.msg-user img')).toBe(true)
      await expect(page.locator('.msg-bot .typing')).toHaveCount(0)

      await page.reload()
      await expect(page.locator('.msg-user img')).toHaveCount(3)
      await expect.poll(() => allLoaded(page, '.msg-user img')).toBe(true)
      expect(failed).toEqual([])
    })
  }
}
