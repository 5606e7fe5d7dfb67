// Re-imports, as a person meets them: chats imported again and again from settings merge into one relationship graph.
// People of an import never confirmed are offered again; people the person confirmed or edited stay exactly as
// they left them; the same person under a shorter name in another app is one card; new people are added.
import { expect, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { readFileSync } from 'node:fs'
import { test, apiSignIn, hydrated, onboardByApi } from './helpers'
import { chatExportFixtures } from '../helpers/chatExportFixtures'

const fixtures = chatExportFixtures()
type Upload = { name: string; mimeType: string; buffer: Buffer }
const fixture = (name: string): Upload => ({ name, mimeType: 'text/plain', buffer: readFileSync(fixtures.get(name)!) })

/** A WhatsApp (Android, 24 h) export of `lines`, a minute apart. */
const whatsApp = (name: string, day: string, lines: [string, string][]): Upload => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(lines.map(([author, text], i) => `${day}, 10:${String(i).padStart(2, '0')} - ${author}: ${text}`).join('\n') + '\n'),
})

// Mia Chen and Alex Turner on LINE (the fixture); Mia with Sam Lee on WhatsApp; then a WhatsApp group where Alex
// Turner is only "Alex", with Kai Ono, whom Mia has not imported before.
const withSam = whatsApp('sam.txt', '16/01/2024', [
  ['Mia Chen', 'hey Sam, lunch tomorrow?'], ['Sam Lee', 'sure, noon?'], ['Mia Chen', 'perfect see you then'], ['Sam Lee', 'see you'],
])
const campingGroup = whatsApp('camping.txt', '20/01/2024', [
  ['Kai Ono', 'who is bringing the tent'], ['Mia Chen', 'I can bring it'], ['Alex', 'I have the stove'], ['Kai Ono', 'nice'],
  ['Alex', 'leaving at 7'], ['Mia Chen', 'see you all saturday'], ['Kai Ono', 'bye'],
])

const noSerious = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
}

/** Settings → Import chat history → the files → the person's own name → Upload and Analyze. */
async function importFromSettings(page: Page, files: Upload[], me: string, names: string[]) {
  await page.goto('/app/settings')
  await page.getByRole('link', { name: 'Import chat history' }).click()
  await expect(page).toHaveURL(/\/upload-chat-history\?from=%2Fapp%2Fsettings$/)
  // Reached by a click, not page.goto: the files are given to the picker once its island is live.
  await hydrated(page)
  await page.getByTestId('chat-file-input').setInputFiles(files)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText(`We found ${names.length} names in these conversations.`)).toBeVisible()
  for (const name of names) await expect(page.getByRole('radio', { name, exact: true })).toBeVisible()
  await page.getByRole('radio', { name: me, exact: true }).click()
  await page.getByRole('button', { name: 'Upload and Analyze' }).click()
  await expect(page).toHaveURL(/\/app\/select-character$/, { timeout: 15_000 })
  // While the analysis runs, or once it is done (a small chat may be analysed before the page is drawn).
  await expect(page.getByText(/Your chats are uploaded|The people in your chats are ready/).first()).toBeVisible()
}

/** Every import of the character has been analysed and merged. */
async function analysed(page: Page, characterId: string, count: number) {
  await expect
    .poll(async () => {
      const imports = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}/chat-history`)).json()
      return imports.map((i: { status: string }) => i.status)
    }, { timeout: 60_000 })
    .toEqual(Array(count).fill('SUCCEEDED'))
}

async function openEditor(page: Page, characterId: string) {
  await page.goto(`/app/characters/${characterId}/relations/edit?from=/app/settings`)
  await expect(page.getByTestId('relation-card').first()).toBeVisible({ timeout: 60_000 })
}

const cardNames = async (page: Page) => (await page.getByTestId('relation-card').locator('h2').allTextContents()).sort()
const card = (page: Page, name: string) => page.getByTestId('relation-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
const chipsOf = async (page: Page, name: string) => (await card(page, name).locator('.chip:not(.add):not(.more)').allTextContents()).sort()

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  test(`re-imports from settings merge into one graph and keep what the person confirmed (${viewport.width} px)`, async ({ page }) => {
    // Three imports and their analyses, one after the other.
    test.setTimeout(240_000)
    await page.setViewportSize(viewport)
    await apiSignIn(page)
    const { characterId } = await onboardByApi(page)

    // 1. A LINE chat with Alex Turner, imported and never confirmed.
    await importFromSettings(page, [fixture('line-ios-en.txt')], 'Mia Chen', ['Mia Chen', 'Alex Turner'])
    await analysed(page, characterId, 1)

    // 2. A WhatsApp chat with Sam Lee: Alex, never confirmed, is offered again beside Sam.
    await importFromSettings(page, [withSam], 'Mia Chen', ['Mia Chen', 'Sam Lee'])
    await analysed(page, characterId, 2)
    await openEditor(page, characterId)
    expect(await cardNames(page)).toEqual(['Alex Turner', 'Sam Lee'])

    // The person confirms the graph, with Alex as a sibling (the proposed type replaced) and as close as can be.
    const alex = card(page, 'Alex Turner')
    await alex.getByRole('button', { name: 'Choose relationship' }).click()
    const picker = page.getByRole('dialog')
    // The picker loads with its first opening; its choices are read once it is there.
    await expect(picker.getByRole('button', { name: 'Done' })).toBeVisible()
    for (const pressed of await picker.locator('[aria-pressed="true"]').all()) await pressed.click()
    await picker.getByRole('button', { name: /Sibling/ }).click()
    await picker.getByRole('button', { name: 'Done' }).click()
    await alex.getByRole('slider').focus()
    await page.keyboard.press('End')
    await expect(alex.getByRole('slider')).toHaveAttribute('aria-valuenow', '5')
    const samBefore = { chips: await chipsOf(page, 'Sam Lee'), closeness: await card(page, 'Sam Lee').getByRole('slider').getAttribute('aria-valuenow') }
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/app\/settings$/)
    await expect(page.getByText('Relationships saved')).toBeVisible()

    // 3. LINE and WhatsApp in one batch: the LINE chat with Alex Turner again, and a group where he is "Alex", with
    // Kai Ono. Alex stays one card, exactly as the person left him; Sam is kept; Kai is added.
    await importFromSettings(page, [fixture('line-ios-en.txt'), campingGroup], 'Mia Chen', ['Mia Chen', 'Alex Turner', 'Kai Ono', 'Alex'])
    await analysed(page, characterId, 3)
    await openEditor(page, characterId)
    expect(await cardNames(page)).toEqual(['Alex Turner', 'Kai Ono', 'Sam Lee'])
    expect(await chipsOf(page, 'Alex Turner')).toEqual(['Sibling'])
    await expect(card(page, 'Alex Turner').getByRole('slider')).toHaveAttribute('aria-valuenow', '5')
    expect(await chipsOf(page, 'Sam Lee')).toEqual(samBefore.chips)
    await expect(card(page, 'Sam Lee').getByRole('slider')).toHaveAttribute('aria-valuenow', samBefore.closeness!)
    expect((await chipsOf(page, 'Kai Ono')).length).toBeGreaterThan(0)
    await noSerious(page)

    // What the editor shows is the stored graph: Alex and Sam confirmed, Kai a proposal still to confirm.
    const graph = await (await page.request.get(`/api/v1/chatbots/characters/${characterId}/relations`)).json()
    const nameOf = new Map(graph.data.nodes.map((n: { id: string; properties: { name: string } }) => [n.id, n.properties.name]))
    const byName = Object.fromEntries(
      graph.data.relationships.map((r: { target: string; types: string[]; properties: { closeness: number; confirmed: boolean } }) => [
        nameOf.get(r.target),
        { types: r.types, closeness: r.properties.closeness, confirmed: r.properties.confirmed },
      ]),
    )
    expect(byName['Alex Turner']).toEqual({ types: ['SIBLINGS'], closeness: 5, confirmed: true })
    expect(byName['Sam Lee']).toMatchObject({ confirmed: true })
    expect(byName['Kai Ono']).toMatchObject({ confirmed: false })
  })
}
