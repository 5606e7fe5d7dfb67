import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama, type FakeModelServer } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'

let app: TestApp
let model: FakeModelServer
beforeAll(async () => {
  model = startFakeOllama()
  app = await startTestApp({ STORY_EXCHANGES: '3' }, { model: createOllamaProvider({ host: model.url, model: 'llama3.2:1b' }) })
})
afterAll(async () => {
  await app?.close()
  model?.stop()
})

const systemPrompt = (request: { body: any }) => request.body.messages[0].content as string

describe('user name and ideal-self description', () => {
  test('401 when signed out', async () => {
    expect((await app.json('GET', '/chatbots/training-data')).status).toBe(401)
    expect((await app.json('POST', '/chatbots/training-data/user-name', { body: { userName: 'Ari' } })).status).toBe(401)
  })

  test('nulls before anything is saved; the name is trimmed and 1 to 50 characters', async () => {
    const { cookie } = await app.signUp()
    const empty = await app.json('GET', '/chatbots/training-data', { cookie })
    expect(empty.body).toEqual({
      userName: null,
      originalIdealSelfDescription: null,
      improvedIdealSelfRoleName: null,
      improvedIdealSelfRoleDescription: null,
    })
    const blank = await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: '   ' } })
    expect(blank.status).toBe(400)
    expect(blank.body.message).toBe('userName is required')
    const long = await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'x'.repeat(51) } })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe('userName must be at most 50 characters')
    const ok = await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: `  ${'林'.repeat(50)}  ` } })
    expect(ok.status).toBe(200)
    expect(ok.body.userName).toBe('林'.repeat(50))
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body.userName).toBe('林'.repeat(50))
  })

  test('the model turns the description into a role; original and improved are stored', async () => {
    const { cookie } = await app.signUp()
    await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    model.queueReplies(JSON.stringify({ roleName: '  Calm Builder ', roleDescription: 'Ships steadily and sleeps well.' }))
    const description = 'Someone who finishes projects without burning out'
    const res = await app.json('POST', '/chatbots/training-data/improved-ideal-self-description', { cookie, body: { idealSelfDescription: description } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      userName: 'Ari',
      originalIdealSelfDescription: description,
      improvedIdealSelfRoleName: 'Calm Builder',
      improvedIdealSelfRoleDescription: 'Ships steadily and sleeps well.',
    })
    const request = model.chats().at(-1)!
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: description })
    expect(systemPrompt(request)).toContain('## Name\nAri')
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body).toEqual(res.body)
  })

  test('description limits: empty and over 1000 characters are refused', async () => {
    const { cookie } = await app.signUp()
    const path = '/chatbots/training-data/improved-ideal-self-description'
    expect((await app.json('POST', path, { cookie, body: { idealSelfDescription: ' ' } })).body.message).toBe('idealSelfDescription is required')
    const long = await app.json('POST', path, { cookie, body: { idealSelfDescription: 'a'.repeat(1001) } })
    expect(long.status).toBe(400)
    expect(long.body.message).toBe('idealSelfDescription must be at most 1000 characters')
  })

  test('a model failure answers 502 BotResponseFailureException and stores nothing', async () => {
    const { cookie } = await app.signUp()
    await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    model.queueReplies({ status: 500, error: 'model crashed' })
    const res = await app.json('POST', '/chatbots/training-data/improved-ideal-self-description', { cookie, body: { idealSelfDescription: 'brave' } })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({ statusCode: 502, error: 'BotResponseFailureException', message: expect.any(String) })
    expect(res.body.message).not.toContain('127.0.0.1')
    const after = await app.json('GET', '/chatbots/training-data', { cookie })
    expect(after.body).toMatchObject({ userName: 'Ari', originalIdealSelfDescription: null, improvedIdealSelfRoleName: null })
  })

  test('DELETE removes the training data and the story', async () => {
    const { cookie } = await app.signUp()
    await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    await app.json('POST', '/chatbots/training-data/story-telling', { cookie, body: { text: '' } })
    const del = await app.json('DELETE', '/chatbots/training-data', { cookie })
    expect(del.status).toBe(200)
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body.userName).toBeNull()
    expect((await app.json('GET', '/chatbots/training-data/story-telling', { cookie })).body).toEqual({ entries: [], isProcessCompleted: false })
  })
})

describe('story telling', () => {
  const post = (cookie: string, body: object) => app.json('POST', '/chatbots/training-data/story-telling', { cookie, body })

  test('opening question, one answer at a time, closing line after STORY_EXCHANGES answers', async () => {
    const { cookie } = await app.signUp()
    await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    expect((await app.json('GET', '/chatbots/training-data/story-telling', { cookie })).body).toEqual({ entries: [], isProcessCompleted: false })

    model.queueReplies('Hi Ari! What is hard for you right now?')
    const first = await post(cookie, { text: '', userPreferredLanguage: 'en' })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      entries: [{ role: 'GUIDE', content: 'Hi Ari! What is hard for you right now?', createdAt: expect.any(String), help: false }],
      newEntries: [{ role: 'GUIDE', content: 'Hi Ari! What is hard for you right now?', createdAt: expect.any(String), help: false }],
      isProcessCompleted: false,
    })
    // "en" is stored as en-US, and the guide is asked in English.
    expect(systemPrompt(model.chats().at(-1)!)).toContain('Write in English')
    expect(systemPrompt(model.chats().at(-1)!)).toContain('question 1 of 3')

    const answers = ['My thesis deadline', 'I freeze and scroll', 'She would write one page first']
    for (const [i, answer] of answers.entries()) {
      model.queueReplies(i < 2 ? `Question ${i + 2}?` : 'Thank you, Ari. Your ideal self is taking shape.')
      const res = await post(cookie, { text: `  ${answer}  `, userPreferredLanguage: 'en-US' })
      expect(res.status).toBe(200)
      const guide = i < 2 ? `Question ${i + 2}?` : 'Thank you, Ari. Your ideal self is taking shape.'
      expect(res.body.newEntries.map((e: any) => [e.role, e.content])).toEqual([['USER', answer], ['GUIDE', guide]])
      expect(res.body.entries).toHaveLength(3 + 2 * i)
      expect(res.body.isProcessCompleted).toBe(i === 2)
      // The model saw the answer it is replying to.
      expect(model.chats().at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: answer })
    }
    expect(systemPrompt(model.chats().at(-1)!)).toContain('They have answered all 3 questions')

    const story = await app.json('GET', '/chatbots/training-data/story-telling', { cookie })
    expect(story.body.isProcessCompleted).toBe(true)
    expect(story.body.entries.map((e: any) => e.role)).toEqual(['GUIDE', 'USER', 'GUIDE', 'USER', 'GUIDE', 'USER', 'GUIDE'])

    const calls = model.chats().length
    const again = await post(cookie, { text: 'one more thing' })
    expect(again.status).toBe(409)
    expect(model.chats().length).toBe(calls)
  })

  test('the default language is zh-TW; a repeated opening request returns the story as it is', async () => {
    const { cookie } = await app.signUp()
    const first = await post(cookie, { text: '', receiveHelloMessage: true })
    expect(first.body.newEntries).toHaveLength(1)
    expect(systemPrompt(model.chats().at(-1)!)).toContain('用繁體中文回答')
    const calls = model.chats().length
    const again = await post(cookie, { text: '', receiveHelloMessage: true })
    expect(again.body).toEqual({ entries: first.body.entries, newEntries: [], isProcessCompleted: false })
    expect(model.chats().length).toBe(calls)
    expect((await post(cookie, { text: '   ' })).body.message).toBe('text is required')
  })

  test('a model failure stores nothing of the exchange, and the answer can be sent again', async () => {
    const { cookie } = await app.signUp()
    await post(cookie, { text: '', userPreferredLanguage: 'zh-CN' })
    model.queueReplies({ text: 'half a question', errorAfterChunks: 2, error: 'upstream went away' })
    const failed = await post(cookie, { text: '我总是拖延', userPreferredLanguage: 'zh-CN' })
    expect(failed.status).toBe(502)
    expect(failed.body.error).toBe('BotResponseFailureException')
    const story = await app.json('GET', '/chatbots/training-data/story-telling', { cookie })
    expect(story.body.entries).toHaveLength(1)

    const retried = await post(cookie, { text: '我总是拖延', userPreferredLanguage: 'zh-CN' })
    expect(retried.status).toBe(200)
    expect(retried.body.entries.map((e: any) => e.role)).toEqual(['GUIDE', 'USER', 'GUIDE'])
  })

  test('a model failure on the opening question stores nothing either', async () => {
    const { cookie } = await app.signUp()
    model.queueReplies({ status: 503, error: 'loading' })
    expect((await post(cookie, { text: '' })).status).toBe(502)
    expect((await app.json('GET', '/chatbots/training-data/story-telling', { cookie })).body.entries).toEqual([])
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body.userName).toBeNull()
  })

  test('two openings requested at once store one', async () => {
    const { cookie } = await app.signUp()
    model.reply((input) => ({ ...defaultReply(input), chunkDelayMs: 20 }))
    try {
      const [a, b] = await Promise.all([post(cookie, { text: '' }), post(cookie, { text: '' })])
      expect([a.status, b.status]).toEqual([200, 200])
      const story = await app.json('GET', '/chatbots/training-data/story-telling', { cookie })
      expect(story.body.entries).toHaveLength(1)
      expect(a.body.entries).toEqual(story.body.entries)
      expect(b.body.entries).toEqual(story.body.entries)
    } finally {
      model.reply(defaultReply)
    }
  })

  test('bad input: unknown language', async () => {
    const { cookie } = await app.signUp()
    const res = await post(cookie, { text: '', userPreferredLanguage: 'fr' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('userPreferredLanguage must be one of en, en-US, zh-TW, zh-CN')
  })
})
