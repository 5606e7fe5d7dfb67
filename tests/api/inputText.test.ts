// Every string that reaches a route is held to one rule: control characters other than tab and newline are
// dropped, a lone UTF-16 surrogate is a 400 naming the field — never a 500, never half-written.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, uniqueEmail, type TestApp } from '../helpers/testApp'
import { NOW_TEXT, startChat } from '../unit/chat/chatFixtures'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const LONE = ['\ud800', '\udfff', 'a\udc00b', 'x\ud83d', '\ud83d\ud83d\ude00\ude00']
const CONTROL = ['\u0000', 'a\u0000b', '\u0001\u0002\u001b[31m', '\u0007bell', 'x\u000by\u000cz', '\u001f']

async function character(cookie: string) {
  const res = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie,
    body: { userName: 'Ari', idealSelfDescription: 'Someone who finishes what they start' },
  })
  expect(res.status).toBe(200)
  return res.body
}

/** Each route of the product that stores text, as a way to send one string and read back what was kept. */
async function routes() {
  const { cookie, user } = await app.signUp()
  const made = await character(cookie)
  const chat = await startChat(app, { ready: true })
  const [bot] = await app.ctx.sql<{ id: string }[]>`
    insert into messages (conversation_id, user_id, role, text) values (${chat.conversationId}, ${chat.userId}, 'ASSISTANT', 'hi') returning id`
  const questionnaire = (await app.json('GET', `/chatbots/characters/${made.id}/questionnaire`, { cookie })).body
  return [
    { name: 'profile name', send: (s: string) => app.json('PATCH', '/self/profile', { cookie, body: { name: `Mei${s}` } }) },
    { name: 'user name', send: (s: string) => app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: `Mei${s}` } }) },
    {
      name: 'improved description',
      send: (s: string) =>
        app.json('POST', '/chatbots/training-data/improved-ideal-self-description', { cookie, body: { idealSelfDescription: `Brave${s} and kind` } }),
    },
    {
      name: 'create character',
      send: (s: string) =>
        app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', { cookie, body: { userName: `Ari${s}`, idealSelfDescription: `Calm${s}` } }),
    },
    { name: 'create conversation', send: (s: string) => app.json('POST', '/chatbots/conversations', { cookie, body: { name: `Talk${s}` } }) },
    {
      name: 'chat send (plain)',
      send: (s: string) => app.json('POST', `${chat.path}/chat?sse=false`, { cookie: chat.cookie, body: { text: `Hello${s} there`, currentDateTime: NOW_TEXT } }),
    },
    {
      name: 'chat send (stream)',
      send: (s: string) =>
        app.json('POST', `${chat.path}/chat`, {
          cookie: chat.cookie,
          headers: { accept: 'text/event-stream' },
          body: { text: `Hello${s} there`, currentDateTime: NOW_TEXT },
        }),
    },
    {
      name: 'feedback',
      send: (s: string) => app.json('POST', '/feedbacks/bot-response-message', { cookie: chat.cookie, body: { messageId: bot.id, feedbackText: `Good${s}` } }),
    },
    {
      name: 'questionnaire answer',
      send: (s: string) =>
        app.json('PATCH', `/chatbots/characters/${made.id}/questionnaire/${questionnaire.id}`, { cookie, body: { answers: { focus: `Speak${s} up` } } }),
    },
    {
      name: 'image upload file name',
      send: (s: string) => {
        const form = new FormData()
        form.append('file', new File([PNG], `me${s}.png`, { type: 'image/png' }))
        return app.json('POST', '/self/file', { cookie, form })
      },
    },
    { name: 'credential sign-in', send: (s: string) => app.json('POST', '/auth/login/credential', { body: { username: `x${s}@example.com`, password: `Pw${s}1!aaaa` } }) },
    { name: 'forgot password', send: (s: string) => app.json('POST', '/auth/forgot-password', { body: { email: `x${s}@example.com`, redirectUrl: `/admin/reset-password${s}` } }) },
    { name: 'conversation id in the path', send: (s: string) => app.json('GET', `/chatbots/conversations/${encodeURIComponent(`x${s}`)}`, { cookie }) },
  ].map((r) => ({ ...r, user }))
}

const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
)

describe('text at the edge', () => {
  test('a lone surrogate anywhere gives a 400 naming the field, on every route that takes text', async () => {
    // Multipart bodies and URLs are UTF-8, which cannot carry a lone surrogate (the sender's encoder replaces it),
    // so file names and paths are covered by the control-character test and the URL test below.
    const jsonRoutes = (await routes()).filter((r) => r.name !== 'image upload file name' && r.name !== 'conversation id in the path')
    for (const route of jsonRoutes) {
      for (const s of LONE) {
        const res = await route.send(s)
        expect(res.status, `${route.name} with ${JSON.stringify(s)}`).toBeGreaterThanOrEqual(400)
        expect(res.status, `${route.name} with ${JSON.stringify(s)}`).toBeLessThan(500)
        expect(res.status, route.name).toBe(400)
        expect(res.body).toMatchObject({ statusCode: 400, error: 'BadRequest' })
        expect(res.body.message, route.name).toMatch(/unpaired UTF-16 surrogate/)
      }
    }
  })

  test('control characters never reach a 500; each route answers as it would without them', async () => {
    for (const route of await routes()) {
      const plain = (await route.send('')).status
      for (const s of CONTROL) {
        const res = await route.send(s)
        expect(res.status, `${route.name} with ${JSON.stringify(s)}`).toBeLessThan(500)
        // Only the rate of sign-in attempts may change an answer; the text itself never does.
        if (!route.name.startsWith('credential')) expect(res.status, `${route.name} with ${JSON.stringify(s)}`).toBe(plain)
      }
    }
  })

  test('what is stored has the controls removed and keeps tabs and line breaks (CR LF becomes LF)', async () => {
    const { cookie, user } = await app.signUp()
    expect((await app.json('PATCH', '/self/profile', { cookie, body: { name: 'Mei\u0000\u0007 Lin' } })).status).toBe(200)
    const [row] = await app.ctx.sql<{ name: string }[]>`select name from users where id = ${user.id}`
    expect(row.name).toBe('Mei Lin')

    const chat = await startChat(app, { ready: true })
    const sent = await app.json('POST', `${chat.path}/chat?sse=false`, {
      cookie: chat.cookie,
      body: { text: 'one\r\ntwo\rthree\tfour\u0000\u001b', currentDateTime: NOW_TEXT },
    })
    expect(sent.status).toBe(200)
    const [message] = await app.ctx.sql<{ text: string }[]>`select text from messages where id = ${sent.body.newUserMessage.id}`
    expect(message.text).toBe('one\ntwo\nthree\tfour')

    const form = new FormData()
    form.append('file', new File([PNG], 'me\u0000\u0001.png', { type: 'image/png' }))
    const uploaded = await app.json('POST', '/self/file', { cookie, form })
    expect(uploaded.status).toBe(200)
  })

  test('nested fields and object keys are named in the message; paired surrogates (emoji) pass', async () => {
    const { cookie } = await app.signUp()
    const made = await character(cookie)
    const q = (await app.json('GET', `/chatbots/characters/${made.id}/questionnaire`, { cookie })).body
    const path = `/chatbots/characters/${made.id}/questionnaire/${q.id}`
    const bad = await app.json('PATCH', path, { cookie, body: { answers: { focus: 'ok', energy: 'tired\udbff' } } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('answers.energy: contains invalid text (an unpaired UTF-16 surrogate)')
    const badKey = await app.json('PATCH', path, { cookie, body: { answers: { 'fo\ud800cus': 'x' } } })
    expect(badKey.status).toBe(400)
    expect(badKey.body.message).toMatch(/^answers\.fo.cus: contains invalid text/)
    const emoji = await app.json('PATCH', path, { cookie, body: { answers: { focus: 'Speak up 😀🙂👩‍👩‍👧' } } })
    expect(emoji.status).toBe(200)
    expect(emoji.body.answers.focus).toBe('Speak up 😀🙂👩‍👩‍👧')
    // Nothing of the refused request was written.
    expect((await app.json('GET', `/chatbots/characters/${made.id}/questionnaire`, { cookie })).body.answers.energy).toBeUndefined()
  })

  test('query strings and path parameters follow the same rule', async () => {
    const made = await app.makeUser({ role: 'ADMIN' })
    const admin = await app.signIn(made.email, made.password)
    // A URL is UTF-8 too: the encodings of a lone surrogate and stray bytes are left as they were sent, not decoded.
    for (const raw of ['a%ED%A0%80', '%ED%B0%80', '%FF%FE', '%C0%80', '%00%00', '%E2%82'])
      expect((await app.json('GET', `/users?q=${raw}`, { cookie: admin })).status, raw).toBe(200)
    const nul = await app.json('GET', `/users?q=${encodeURIComponent(uniqueEmail('nobody') + '\u0000')}`, { cookie: admin })
    expect(nul.status).toBe(200)
    const { cookie } = await app.signUp()
    // Names of an object's own machinery are just unknown values.
    for (const zone of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect((await app.json('GET', `/help-lines?timeZone=${zone}`, { cookie })).status, zone).toBe(200)
    const path = await app.json('GET', `/chatbots/characters/${encodeURIComponent('\u0000')}`, { cookie })
    expect(path.status).toBeLessThan(500)
  })

  test('input nested deeper than any call takes is refused, not walked', async () => {
    const { cookie } = await app.signUp()
    let deep: unknown = 'x'
    for (let i = 0; i < 5000; i++) deep = [deep]
    const res = await app.json('POST', '/chatbots/conversations', { cookie, body: { name: 'ok', extra: deep } })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/nested more than 32 levels deep/)
  })
})
