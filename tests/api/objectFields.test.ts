// A string sent where an object of free keys belongs is refused at once, not turned into one key per character.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

test('content values, questionnaire answers and analytics props refuse strings quickly', async () => {
  const admin = await app.makeUser({ role: 'ADMIN' })
  const cookie = await app.signIn(admin.email, admin.password)
  const user = await app.signUp()
  const character = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie: user.cookie,
    body: { userName: 'Ari', idealSelfDescription: 'Someone calm' },
  })
  const id = character.body.characterId ?? character.body.id
  const q = (await app.json('GET', `/chatbots/characters/${id}/questionnaire`, { cookie: user.cookie })).body
  const big = 'm'.repeat(1024 * 1024)
  const cases = [
    () => app.json('POST', '/content-editors/editable-contents/support/contents', { cookie, body: { values: big } }),
    () => app.json('PATCH', `/chatbots/characters/${id}/questionnaire/${q.id}`, { cookie: user.cookie, body: { answers: 'x'.repeat(200 * 1024) } }),
    () => app.json('POST', '/analytics/events', { body: { event: 'x', props: 'p'.repeat(200 * 1024) } }),
  ]
  for (const send of cases) {
    const started = performance.now()
    const res = await send()
    expect(res.status).toBe(400)
    expect(performance.now() - started).toBeLessThan(500)
  }
  const short = await app.json('PATCH', `/chatbots/characters/${id}/questionnaire/${q.id}`, { cookie: user.cookie, body: { answers: 'abc' } })
  expect(short.body.message).toBe('answers must be an object of question ids and answers')
})
