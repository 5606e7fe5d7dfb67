// Memory with a model (the local server speaking Ollama's wire format): the extraction call's answer is stored,
// comes back as a chip in a later conversation, shows in the character dev tool, and a failed regeneration
// leaves the reply as it was.
import { expect } from '@playwright/test'
import { test, credentialSignIn, onboardByApi, openChatRoom, sendAndAwaitReply } from './helpers'
import { controlPort } from '../../playwright.config'

const script = (body: object) => fetch(`http://127.0.0.1:${controlPort}/`, { method: 'POST', body: JSON.stringify(body) })

test('what the model extracts comes back with its chip, in the dev tool too; a failed regeneration changes nothing', async ({ page }) => {
  await credentialSignIn(page, 'admin@e2e.test', 'E2e-admin-Passw0rd!')
  await page.request.delete('/api/v1/memories')
  const first = await onboardByApi(page)
  await openChatRoom(page, first)
  await script({ memory: { add: [{ kind: 'plan', text: 'Training for the Taipei marathon in April', label: 'marathon', person: null }], update: [], outdated: [] } })
  await script({ text: 'That is a big goal. How is the training going?' })
  await sendAndAwaitReply(page, 'I signed up for the Taipei marathon in April')
  await expect
    .poll(async () => (await (await page.request.get('/api/v1/memories')).json()).memories.map((m: { text: string }) => m.text), { timeout: 15_000 })
    .toEqual(['Training for the Taipei marathon in April'])

  const later = await (await page.request.post('/api/v1/chatbots/conversations', { data: { name: 'Later', characterId: first.characterId } })).json()
  await openChatRoom(page, { conversationId: later.conversationId, characterId: first.characterId })
  await script({ text: 'Rest tomorrow; April is close, and your legs need it.' })
  await sendAndAwaitReply(page, 'My marathon training was hard today')
  const reply = page.locator('.msg-bot').last()
  await expect(reply).toContainText('Rest tomorrow')
  await expect(reply.getByRole('button', { name: 'Memory: marathon' })).toBeVisible()

  await page.getByTestId('character-dev-tool').click()
  const tool = page.getByRole('dialog', { name: 'Character Dev Tool' })
  await expect(tool.getByRole('region', { name: 'Sources of the last reply' })).toContainText('marathon (plan): Training for the Taipei marathon in April')
  await tool.getByRole('button', { name: 'Close' }).click()

  await script({ status: 500, error: 'model crashed' })
  await reply.getByRole('button', { name: 'Regenerate' }).click()
  const alert = page.getByRole('alertdialog')
  await expect(alert).toContainText('No response is returned from the bot, please try again later')
  await alert.getByRole('button').click()
  await expect(reply).toContainText('Rest tomorrow')
  await expect(reply.getByText(/Version \d of/)).toHaveCount(0)
  await page.reload()
  await expect(page.locator('.msg-bot').last()).toContainText('Rest tomorrow')
})
