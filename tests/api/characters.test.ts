import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { defaultReply, startFakeOllama, type FakeModelServer, type ReplyInput } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { rebuildCharacterPrompt } from '../../api/characters/characterPrompt'

let app: TestApp
let model: FakeModelServer
/** Requests that mention one of these names fail, as a model that is down would. */
const failingFor = new Set<string>()

const ROLE = { roleName: 'Brave Builder', roleDescription: 'Builds calmly and asks for help early.' }
const PORTRAIT = 'You are the future self who ships calmly and sleeps well.'

function scripted(input: ReplyInput) {
  const sent = JSON.stringify(input.request.body.messages)
  if ([...failingFor].some((name) => sent.includes(name))) return { status: 500, error: 'model is down' }
  const schema = JSON.stringify(input.schema ?? {})
  if (schema.includes('roleName')) return JSON.stringify(ROLE)
  if (schema.includes('persona')) return JSON.stringify({ persona: PORTRAIT })
  return defaultReply(input)
}

beforeAll(async () => {
  model = startFakeOllama({ reply: scripted })
  app = await startTestApp({ STORY_EXCHANGES: '2' }, { model: createOllamaProvider({ host: model.url, model: 'llama3.2:1b' }) })
})
afterAll(async () => {
  await app?.close()
  model?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await sleep(30)
  }
}

async function staff(role: 'DEVELOPER' | 'ADMIN' = 'DEVELOPER') {
  const made = await app.makeUser({ role })
  return { cookie: await app.signIn(made.email, made.password), id: made.id }
}

async function create(cookie: string, userName = 'Ari', idealSelfDescription = 'Someone who finishes what they start') {
  const res = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', { cookie, body: { userName, idealSelfDescription } })
  expect(res.status).toBe(200)
  return res.body
}

const ready = (cookie: string, id: string) =>
  waitFor(async () => (await app.json('GET', `/chatbots/characters/${id}?selectIsReady=true`, { cookie })).body.isReady)

describe('creating and reading characters', () => {
  test('401 when signed out; 400 for a missing name or a description over 1000 characters', async () => {
    expect((await app.json('GET', '/chatbots/characters')).status).toBe(401)
    const { cookie } = await app.signUp()
    const noName = await app.json('POST', '/chatbots/characters', { cookie, body: { userName: ' ', idealSelfDescription: 'x' } })
    expect(noName.status).toBe(400)
    expect(noName.body.message).toBe('userName is required')
    const long = await app.json('POST', '/chatbots/characters', { cookie, body: { userName: 'Ari', idealSelfDescription: 'x'.repeat(1001) } })
    expect(long.body.message).toBe('idealSelfDescription must be at most 1000 characters')
    expect((await app.json('GET', '/chatbots/characters', { cookie })).body).toEqual([])
  })

  test('a new character is not ready, has a queued build, and becomes ready once the job has run', async () => {
    const { cookie } = await app.signUp()
    const body = await create(cookie, '  Ari  ', 'Someone who finishes what they start')
    expect(body).toEqual({
      characterId: body.id,
      id: expect.any(String),
      name: 'Ideal Self',
      isReady: false,
      characterGenerationJobs: [
        expect.objectContaining({ kind: 'build-character', status: expect.stringMatching(/PENDING|RUNNING/), lastError: null }),
      ],
      stageCompletions: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    // The name and description are the training data the character is built from.
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body).toMatchObject({
      userName: 'Ari',
      originalIdealSelfDescription: 'Someone who finishes what they start',
    })

    await ready(cookie, body.id)
    const [listed] = (await app.json('GET', '/chatbots/characters', { cookie })).body
    expect(listed).toMatchObject({ id: body.id, name: ROLE.roleName, isReady: true })
    expect(listed.characterGenerationJobs).toEqual([
      { id: expect.any(String), kind: 'build-character', status: 'SUCCEEDED', attempts: 1, maxAttempts: 3, lastError: null, createdAt: expect.any(String), updatedAt: expect.any(String) },
    ])
    expect(listed).not.toHaveProperty('prompt')
    // The build improved the description on its own, since onboarding had not.
    expect((await app.json('GET', '/chatbots/training-data', { cookie })).body.improvedIdealSelfRoleName).toBe(ROLE.roleName)
  })

  test('the list is oldest first; a character is found by id, or as just {id, isReady}', async () => {
    const { cookie } = await app.signUp()
    const first = await create(cookie)
    const second = await create(cookie)
    const list = (await app.json('GET', '/chatbots/characters', { cookie })).body
    expect(list.map((c: any) => c.id)).toEqual([first.id, second.id])
    expect(new Date(list[0].createdAt).getTime()).toBeLessThanOrEqual(new Date(list[1].createdAt).getTime())
    const one = await app.json('GET', `/chatbots/characters/${first.id}`, { cookie })
    expect(one.body).toMatchObject({ id: first.id, characterGenerationJobs: [expect.any(Object)] })
    const readiness = await app.json('GET', `/chatbots/characters/${first.id}?selectIsReady=true`, { cookie })
    expect(Object.keys(readiness.body).sort()).toEqual(['id', 'isReady'])
    await ready(cookie, first.id)
    await ready(cookie, second.id)
  })

  test('the prompt is shown only to ADMIN and DEVELOPER, and only when asked for', async () => {
    const regular = await app.signUp()
    const mine = await create(regular.cookie)
    await ready(regular.cookie, mine.id)
    const hidden = await app.json('GET', `/chatbots/characters/${mine.id}?includePrompt=true`, { cookie: regular.cookie })
    expect(hidden.body).not.toHaveProperty('prompt')
    expect(hidden.body).not.toHaveProperty('idealSelfPrompt')

    const dev = await staff()
    const devs = await create(dev.cookie)
    await ready(dev.cookie, devs.id)
    expect((await app.json('GET', `/chatbots/characters/${devs.id}`, { cookie: dev.cookie })).body).not.toHaveProperty('prompt')
    const shown = await app.json('GET', `/chatbots/characters/${devs.id}?includePrompt=true`, { cookie: dev.cookie })
    expect(shown.body.idealSelfPrompt).toBe(PORTRAIT)
    expect(shown.body.prompt).toContain(PORTRAIT)
  })

  test('DELETE removes the character with its jobs', async () => {
    const { cookie } = await app.signUp()
    const body = await create(cookie)
    await ready(cookie, body.id)
    expect((await app.json('DELETE', `/chatbots/characters/${body.id}`, { cookie })).body).toEqual({ ok: true })
    expect((await app.json('GET', `/chatbots/characters/${body.id}`, { cookie })).status).toBe(404)
    expect(await app.ctx.sql`select 1 from jobs where character_id = ${body.id}`).toHaveLength(0)
  })
})

describe('ownership', () => {
  test("another user's character is not found by any call, and stays untouched", async () => {
    const a = await app.signUp()
    const b = await app.signUp()
    const character = await create(a.cookie)
    await ready(a.cookie, character.id)
    const questionnaire = (await app.json('GET', `/chatbots/characters/${character.id}/questionnaire`, { cookie: a.cookie })).body
    const id = character.id
    const calls: [string, string, object?][] = [
      ['GET', `/chatbots/characters/${id}`],
      ['GET', `/chatbots/characters/${id}?selectIsReady=true`],
      ['DELETE', `/chatbots/characters/${id}`],
      ['GET', `/chatbots/characters/${id}/questionnaire`],
      ['PATCH', `/chatbots/characters/${id}/questionnaire/${questionnaire.id}`, { answers: { energy: 'stolen' } }],
      ['PATCH', `/chatbots/characters/${id}/stage-completions/CONFIRM_RELATIONS`],
      ['POST', `/chatbots/characters/${id}/retry-build`],
    ]
    for (const [method, path, body] of calls) {
      const res = await app.json(method, path, { cookie: b.cookie, body })
      expect([method, path, res.status]).toEqual([method, path, 404])
    }
    // B's own character id with A's questionnaire id is not a way in either.
    const own = await create(b.cookie)
    const crossed = await app.json('PATCH', `/chatbots/characters/${own.id}/questionnaire/${questionnaire.id}`, {
      cookie: b.cookie,
      body: { answers: { energy: 'stolen' } },
    })
    expect(crossed.status).toBe(404)

    const after = await app.json('GET', `/chatbots/characters/${id}`, { cookie: a.cookie })
    expect(after.status).toBe(200)
    expect(after.body.stageCompletions).toEqual([])
    expect((await app.json('GET', `/chatbots/characters/${id}/questionnaire`, { cookie: a.cookie })).body.answers).toEqual({})
    expect((await app.json('GET', '/chatbots/characters/not-a-uuid', { cookie: a.cookie })).status).toBe(404)
    await ready(b.cookie, own.id)
  })

  test("a DEVELOPER cannot edit another user's prompt", async () => {
    const a = await app.signUp()
    const character = await create(a.cookie)
    const dev = await staff()
    const res = await app.json('PATCH', `/chatbots/characters/${character.id}/prompt`, { cookie: dev.cookie, body: { prompt: 'hijacked' } })
    expect(res.status).toBe(404)
    await ready(a.cookie, character.id)
  })
})

describe('developer tools', () => {
  test('only ADMIN and DEVELOPER may PATCH the prompt; a new ideal-self prompt re-assembles the system prompt', async () => {
    const regular = await app.signUp()
    const theirs = await create(regular.cookie)
    expect((await app.json('PATCH', `/chatbots/characters/${theirs.id}/prompt`, { cookie: regular.cookie, body: { prompt: 'x' } })).status).toBe(403)

    const dev = await staff('ADMIN')
    const mine = await create(dev.cookie, 'Dana')
    await ready(dev.cookie, mine.id)
    const path = `/chatbots/characters/${mine.id}/prompt`
    expect((await app.json('PATCH', path, { cookie: dev.cookie, body: {} })).body.message).toBe('Send prompt or idealSelfPrompt')

    const portrait = await app.json('PATCH', path, { cookie: dev.cookie, body: { idealSelfPrompt: 'You are the Dana who paints every morning.' } })
    expect(portrait.status).toBe(200)
    expect(portrait.body.idealSelfPrompt).toBe('You are the Dana who paints every morning.')
    expect(portrait.body.prompt).toContain('You are the Dana who paints every morning.')
    expect(portrait.body.prompt).not.toContain(PORTRAIT)
    expect(portrait.body.prompt).toContain('你是Dana理想中的自己')

    const system = await app.json('PATCH', path, { cookie: dev.cookie, body: { prompt: 'Be brief.' } })
    expect(system.body).toMatchObject({ prompt: 'Be brief.', idealSelfPrompt: 'You are the Dana who paints every morning.' })
    await ready(regular.cookie, theirs.id)
  })

  test('rebuild: REGULAR is refused; none to rebuild is a 400; otherwise every character is replaced by a fresh one', async () => {
    const regular = await app.signUp()
    expect((await app.json('POST', '/chatbots/characters/rebuild', { cookie: regular.cookie })).status).toBe(403)

    const dev = await staff()
    const none = await app.json('POST', '/chatbots/characters/rebuild', { cookie: dev.cookie })
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('No characters to rebuild')

    const old1 = await create(dev.cookie)
    const old2 = await create(dev.cookie)
    const rebuilt = await app.json('POST', '/chatbots/characters/rebuild', { cookie: dev.cookie })
    expect(rebuilt.status).toBe(200)
    expect(rebuilt.body).toMatchObject({ characterId: rebuilt.body.id, isReady: false })
    const list = (await app.json('GET', '/chatbots/characters', { cookie: dev.cookie })).body
    expect(list.map((c: any) => c.id)).toEqual([rebuilt.body.id])
    expect([old1.id, old2.id]).not.toContain(rebuilt.body.id)
    await ready(dev.cookie, rebuilt.body.id)
  })
})

describe('questionnaire and stages', () => {
  test("a five-question questionnaire is created on first read, in the user's language, and answers are validated", async () => {
    const { cookie } = await app.signUp()
    const character = await create(cookie)
    const path = `/chatbots/characters/${character.id}/questionnaire`
    const first = (await app.json('GET', path, { cookie })).body
    expect(first).toMatchObject({ id: expect.any(String), version: 1, answers: {} })
    expect(first.questions.map((q: any) => [q.id, q.type])).toEqual([
      ['focus', 'text'],
      ['directness', 'scale'],
      ['energy', 'text'],
      ['push', 'scale'],
      ['avoid', 'text'],
    ])
    // No story language chosen yet: the product default, Traditional Chinese.
    expect(first.questions[0].text).toBe('現在你最希望理想中的自己幫你什麼？')
    expect(first.questions[1]).toMatchObject({ min: 1, max: 5, minLabel: '溫柔委婉', maxLabel: '直截了當' })
    expect((await app.json('GET', path, { cookie })).body.id).toBe(first.id)

    const patch = (answers: object) => app.json('PATCH', `${path}/${first.id}`, { cookie, body: { answers } })
    expect((await patch({ mood: 'x' })).body.message).toBe('answers.mood: there is no such question')
    expect((await patch({ directness: 6 })).body.message).toBe('answers.directness: must be a whole number from 1 to 5')
    expect((await patch({ directness: 2.5 })).status).toBe(400)
    expect((await patch({ energy: 5 })).body.message).toBe('answers.energy: must be text')
    expect((await patch({ energy: 'x'.repeat(1001) })).body.message).toBe('answers.energy: must be at most 1000 characters')
    expect((await app.json('PATCH', `${path}/${first.id}`, { cookie, body: { answers: 'all of them' } })).status).toBe(400)

    const saved = await patch({ energy: '  Cycling  ', directness: 4 })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ id: first.id, answers: { energy: 'Cycling', directness: 4 } })
    const merged = await patch({ energy: '', avoid: 'Never call me lazy' })
    expect(merged.body.answers).toEqual({ directness: 4, avoid: 'Never call me lazy' })
    await ready(cookie, character.id)
  })

  test('the questions follow the story language', async () => {
    const { cookie } = await app.signUp()
    await app.json('POST', '/chatbots/training-data/story-telling', { cookie, body: { text: '', userPreferredLanguage: 'en' } })
    const character = await create(cookie)
    const questionnaire = (await app.json('GET', `/chatbots/characters/${character.id}/questionnaire`, { cookie })).body
    expect(questionnaire.questions[0].text).toBe('What do you most want your ideal self to help you with right now?')
    await ready(cookie, character.id)
  })

  test('stage completions are recorded once, from the allowed list', async () => {
    const { cookie } = await app.signUp()
    const character = await create(cookie)
    const path = `/chatbots/characters/${character.id}/stage-completions`
    const done = await app.json('PATCH', `${path}/CONFIRM_RELATIONS`, { cookie })
    expect(done.body).toEqual({ stageCompletions: [{ stage: 'CONFIRM_RELATIONS', completedAt: expect.any(String) }] })
    const again = await app.json('PATCH', `${path}/CONFIRM_RELATIONS`, { cookie })
    expect(again.body).toEqual(done.body)
    const bad = await app.json('PATCH', `${path}/FLY_TO_MOON`, { cookie })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('stage must be one of CONFIRM_RELATIONS, UPLOAD_CHAT_HISTORY, COMPLETE_QUESTIONNAIRE')
    expect((await app.json('GET', `/chatbots/characters/${character.id}`, { cookie })).body.stageCompletions).toEqual(done.body.stageCompletions)
    await ready(cookie, character.id)
  })
})

describe('failed builds', () => {
  /** Makes the character's pending retry due now and wakes the worker, instead of waiting out the backoff. */
  const hurry = (characterId: string) =>
    app.ctx.sql`update jobs set run_after = now() where character_id = ${characterId} and status = 'PENDING'`.then(() => app.ctx.jobs.kick())

  test('a build that keeps failing ends FAILED with its error visible, and can be retried once the model is back', async () => {
    const name = `Fei-${Date.now()}`
    failingFor.add(name)
    const { cookie } = await app.signUp()
    const character = await create(cookie, name)
    const failed = await waitFor(async () => {
      await hurry(character.id)
      const [job] = (await app.json('GET', `/chatbots/characters/${character.id}`, { cookie })).body.characterGenerationJobs
      return job.status === 'FAILED' ? job : null
    })
    expect(failed).toMatchObject({ attempts: 3, maxAttempts: 3, lastError: expect.stringContaining('model is down') })
    expect((await app.json('GET', `/chatbots/characters/${character.id}?selectIsReady=true`, { cookie })).body.isReady).toBe(false)

    // Relations handed over before the character is built are kept for the build.
    expect(await rebuildCharacterPrompt(app.ctx.sql, character.id, { relations: [{ name: 'Jun', types: ['CLOSE_FRIEND'], closeness: 4 }] })).toBeNull()

    const retried = await app.json('POST', `/chatbots/characters/${character.id}/retry-build`, { cookie })
    expect(retried.status).toBe(200)
    const busy = await app.json('POST', `/chatbots/characters/${character.id}/retry-build`, { cookie })
    expect(busy.status).toBe(409)
    expect(busy.body.message).toBe('The character is already being built')

    failingFor.delete(name)
    await waitFor(async () => {
      await hurry(character.id)
      return (await app.json('GET', `/chatbots/characters/${character.id}?selectIsReady=true`, { cookie })).body.isReady
    })
    const jobs = (await app.json('GET', `/chatbots/characters/${character.id}`, { cookie })).body.characterGenerationJobs
    expect(jobs.map((j: any) => j.status)).toEqual(['FAILED', expect.stringMatching(/RUNNING|SUCCEEDED/)])
    const [{ prompt }] = await app.ctx.sql<{ prompt: string }[]>`select prompt from characters where id = ${character.id}`
    expect(prompt).toContain('Jun: close friend; 親密度 4/5')
  })
})

describe('the prompt after a whole onboarding', () => {
  test("the character's prompt holds the name, both descriptions, every story answer and the questionnaire answers", async () => {
    const dev = await staff()
    const cookie = dev.cookie
    const description = 'A designer who speaks up in reviews and still leaves work at six'
    await app.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Mei' } })
    const improved = await app.json('POST', '/chatbots/training-data/improved-ideal-self-description', { cookie, body: { idealSelfDescription: description } })
    expect(improved.body.improvedIdealSelfRoleName).toBe(ROLE.roleName)

    const answers = ['My manager talks over me in design reviews', 'She would finish her sentence and then ask for two minutes']
    const start = await app.json('POST', '/chatbots/training-data/story-telling', { cookie, body: { text: '', userPreferredLanguage: 'en-US' } })
    expect(start.body.newEntries).toHaveLength(1)
    let last: any
    for (const text of answers) {
      last = await app.json('POST', '/chatbots/training-data/story-telling', { cookie, body: { text, userPreferredLanguage: 'en-US' } })
      expect(last.status).toBe(200)
    }
    expect(last.body.isProcessCompleted).toBe(true)
    const guideLines = last.body.entries.filter((e: any) => e.role === 'GUIDE').map((e: any) => e.content)

    const character = await create(cookie, 'Mei', description)
    await ready(cookie, character.id)
    const questionnaire = (await app.json('GET', `/chatbots/characters/${character.id}/questionnaire`, { cookie })).body
    const saved = await app.json('PATCH', `/chatbots/characters/${character.id}/questionnaire/${questionnaire.id}`, {
      cookie,
      body: { answers: { energy: 'Morning runs by the river', directness: 4, avoid: 'Never call me lazy' } },
    })
    expect(saved.status).toBe(200)

    const { body } = await app.json('GET', `/chatbots/characters/${character.id}?includePrompt=true`, { cookie })
    const prompt: string = body.prompt
    expect(body.idealSelfPrompt).toBe(PORTRAIT)
    for (const text of [
      'Mei',
      description,
      ROLE.roleName,
      ROLE.roleDescription,
      PORTRAIT,
      ...answers,
      ...guideLines,
      'What gives you energy when things get hard? Morning runs by the river',
      'How direct should your ideal self be with you? 4/5',
      'Is there anything your ideal self should never say or do? Never call me lazy',
    ])
      expect(prompt).toContain(text)
    // Written in the story language.
    expect(prompt).toContain("You are Mei's ideal self")

    // Data handed over later by the relations and chat-history features is added, and kept by later rebuilds.
    await rebuildCharacterPrompt(app.ctx.sql, character.id, {
      relations: [{ name: 'Ah-Hua', types: ['SIBLINGS'], closeness: 5 }],
      speakingStyle: { summary: 'Short, warm messages with a joke now and then.', samples: ['ok ok, on my way'] },
    })
    await app.json('PATCH', `/chatbots/characters/${character.id}/questionnaire/${questionnaire.id}`, { cookie, body: { answers: { focus: 'Speaking up' } } })
    const after = (await app.json('GET', `/chatbots/characters/${character.id}?includePrompt=true`, { cookie })).body.prompt
    for (const text of ['Ah-Hua: siblings; closeness 5 of 5', 'Short, warm messages with a joke now and then.', 'ok ok, on my way', 'Speaking up', 'Morning runs by the river'])
      expect(after).toContain(text)
  })
})
