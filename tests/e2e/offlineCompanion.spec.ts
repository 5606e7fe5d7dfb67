// With no model, the companion still reads as a companion in the browser: it answers without quoting the message
// back, changes its wording from turn to turn, uses what the person shared, and follows their language.
import { expect } from '@playwright/test'
import { test, apiSignIn, onboardByApi } from './helpers'

const sentences = (text: string) => text.split(/\n+|(?<=[.!?。！？])["”」]?\s*/u).map((s) => s.trim()).filter((s) => /\p{L}/u.test(s))

test('offline replies vary, never repeat a sentence, quote nothing back, and follow the language', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await apiSignIn(page)
  const ids = await onboardByApi(page, { name: 'Rin', description: 'A steady, kind leader who listens first' })
  await page.goto(`/app/conversations/${ids.conversationId}/character/${ids.characterId}`)
  await expect(page.getByRole('button', { name: 'Give feedback' })).toHaveCount(1, { timeout: 20_000 })

  const said = [
    'I keep putting off the hard conversation with my manager about my workload.',
    'I keep putting off the hard conversation with my manager about my workload.',
    'I got some good news today, my project was finally approved!',
    'I do not know what to do anymore, everything feels like too much.',
    '我最近壓力很大，晚上都睡不好，不知道該怎麼辦。',
  ]
  const replies: string[] = []
  for (const [i, text] of said.entries()) {
    await page.getByLabel('Message').fill(text)
    await page.getByLabel('Message').press('Enter')
    await expect(page.getByRole('button', { name: /Give feedback/ })).toHaveCount(i + 2, { timeout: 20_000 })
    replies.push((await page.locator('.msg-bot .msg-text').last().innerText()).trim())
  }

  for (const [i, reply] of replies.entries()) {
    expect(reply).not.toContain(said[i].slice(0, 25))
    expect(reply).toMatch(/[?？]$/)
  }
  const all = replies.flatMap(sentences)
  expect(all.filter((s, i) => all.indexOf(s) !== i)).toEqual([])
  expect(replies[0]).not.toBe(replies[1])
  expect(replies.join(' ')).toContain('a steady, kind leader who listens first')
  expect(replies[4]).toMatch(/\p{Script=Han}/u)
  expect(replies[4].replace(/Rin/g, '')).not.toMatch(/[A-Za-z]{3,}/)
})
