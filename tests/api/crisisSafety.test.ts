import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { startFakeOllama, type FakeModelServer, type ReplyInput } from '../helpers/fakeOllama'
import { createOllamaProvider } from '../../api/llm/ollamaProvider'
import { allEvents, NOW_TEXT, startChat, type ChatSetup, type StreamEvent } from '../unit/chat/chatFixtures'
import { SUPPORTIVE_REPLY } from '../../api/chat/safety/crisisReply'

const MODEL = 'llama3.2:1b'
let offline: TestApp
let ollama: TestApp
let fake: FakeModelServer

/** The model's second opinion is asked with a JSON schema; every other call is a chat reply. */
let verdict: (input: ReplyInput) => { risk: boolean } | Promise<{ risk: boolean }> = () => ({ risk: false })

beforeAll(async () => {
  fake = startFakeOllama({ models: [MODEL] })
  offline = await startTestApp()
  ollama = await startTestApp({}, { model: createOllamaProvider({ host: fake.url, model: MODEL }) })
})
afterAll(async () => {
  await offline?.close()
  await ollama?.close()
  fake?.stop()
})
beforeEach(() => {
  verdict = () => ({ risk: false })
  fake.reply(async (input) =>
    input.schema ? { text: JSON.stringify(await verdict(input)) } : { text: `Companion says: ${input.lastUserText.length} characters heard.` },
  )
})

const chatRequest = (chat: ChatSetup, body: Record<string, unknown>, query = '') =>
  new Request(`http://localhost/api/v1${chat.path}/chat${query}`, {
    method: 'POST',
    headers: { cookie: chat.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ currentDateTime: NOW_TEXT, ...body }),
  })

async function stream(app: TestApp, chat: ChatSetup, body: Record<string, unknown>): Promise<StreamEvent[]> {
  const res = await app.app.handle(chatRequest(chat, body))
  expect(res.status).toBe(200)
  return allEvents(res)
}

async function plain(app: TestApp, chat: ChatSetup, body: Record<string, unknown>) {
  const res = await app.app.handle(chatRequest(chat, body, '?sse=false'))
  expect(res.status).toBe(200)
  return (await res.json()).newChatbotMessage as { id: string; text: string; help: string | null }
}

const chatCalls = () => fake.chats().filter((r) => !r.body?.format)
// Second-opinion calls only: background memory extraction also asks for JSON, on its own schema.
const classifications = () => fake.chats().filter((r) => r.body?.format?.required?.includes('risk'))

describe('a crisis message gets help first', () => {
  test.each([
    ['en', 'i keep thinking about how easy it would be to just take all my pills tonight', 'America/New_York', '988'],
    ['zh-TW', '我真的撐不下去了，想從頂樓跳下去', 'Asia/Taipei', '1925'],
    ['zh-CN', '已经偷偷攒了一瓶安眠药，打算这周末吃掉', 'Asia/Shanghai', '12356'],
  ])('%s: the help block is the first event, before any word of the companion, and is saved first', async (_lang, text, timeZone, line) => {
    const chat = await startChat(ollama)
    const events = await stream(ollama, chat, { text, timeZone })
    const kinds = events.map((e) => e.event).filter((e) => e !== 'heartbeat')
    expect(kinds[0]).toBe('start')
    expect(kinds[1]).toBe('help')
    expect(kinds.slice(2, -1).every((k) => k === 'delta')).toBe(true)
    const help = events.find((e) => e.event === 'help')!.data.text as string
    expect(help).toContain(line)
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect(done.data.help).toBe(help)
    expect(done.data.text.startsWith(help)).toBe(true)
    expect(done.data.text).toContain('Companion says:')
    // The companion was told to stay with the person, ask about safety and never give methods.
    const system = chatCalls().at(-1)!.body.messages[0].content as string
    expect(system).toContain('## Safety')
    expect(system).toMatch(/never give any information about methods/i)
    const [stored] = await ollama.ctx.sql<{ text: string; help_text: string }[]>`
      select text, help_text from messages where id = ${done.data.botMessageId}`
    expect(stored).toEqual({ text: done.data.text, help_text: help })
  })

  test('?sse=false: the reply text opens with the help block', async () => {
    const chat = await startChat(ollama)
    const reply = await plain(ollama, chat, { text: "I don't want to wake up tomorrow", timeZone: 'Europe/London' })
    expect(reply.help).toContain('116 123')
    expect(reply.text.startsWith(reply.help!)).toBe(true)
    expect(reply.text.indexOf('Companion says:')).toBeGreaterThan(reply.help!.length)
  })

  test('an ordinary message, a figure of speech or a denial gets no help block and no safety instruction', async () => {
    const chat = await startChat(ollama)
    for (const text of ['this deadline is killing me lol', '笑死，熱死了', "I'm not suicidal, just stressed about exams", '我在寫自殺防治的報告']) {
      const reply = await plain(ollama, chat, { text, timeZone: 'Asia/Taipei' })
      expect(reply.help).toBeNull()
      expect(reply.text).toMatch(/^Companion says:/)
      expect(chatCalls().at(-1)!.body.messages[0].content).not.toContain('## Safety')
    }
  })

  test('history sent to the model leaves the help block out', async () => {
    const chat = await startChat(ollama)
    await plain(ollama, chat, { text: 'I want to kill myself', timeZone: 'America/New_York' })
    await plain(ollama, chat, { text: 'my sister called me afterwards' })
    const messages = chatCalls().at(-1)!.body.messages as { role: string; content: string }[]
    const assistant = messages.filter((m) => m.role === 'assistant').map((m) => m.content).join('\n')
    expect(assistant).toContain('Companion says:')
    expect(assistant).not.toContain('988')
  })
})

describe('where the person is', () => {
  test.each([
    ['America/New_York', '988', ['1925', '12356']],
    ['America/Toronto', '988', ['1925']],
    ['Europe/London', '116 123', ['988', '1925']],
    ['Europe/Dublin', '1800 247 247', ['988']],
    ['Australia/Sydney', '13 11 14', ['988', '1925']],
    ['Pacific/Auckland', '1737', ['988']],
    ['Asia/Taipei', '1925', ['12356', '988']],
    ['Asia/Hong_Kong', '2389 2222', ['1925']],
    ['Asia/Shanghai', '12356', ['1925', '988']],
    ['Asia/Singapore', '1767', ['988']],
    ['Asia/Kuala_Lumpur', '15555', ['988']],
    ['Asia/Tokyo', '0120-279-338', ['988']],
    ['Europe/Berlin', 'findahelpline.com', ['988', '1925', '12356']],
  ])('time zone %s gives that place\'s lines', async (timeZone, line, absent) => {
    const chat = await startChat(offline)
    const reply = await plain(offline, chat, { text: 'I want to end my life', timeZone })
    expect(reply.help).toContain(line)
    for (const other of absent) expect(reply.help).not.toContain(other)
  })

  test.each([undefined, '', 'Mars/Olympus_Mons', 'not a zone at all', '../../etc/passwd', 'x'.repeat(500)])(
    'an unknown or malformed time zone (%s) falls back to the language, never an error',
    async (timeZone) => {
      const chat = await startChat(offline)
      const english = await plain(offline, chat, { text: 'I want to kill myself', ...(timeZone === undefined ? {} : { timeZone }) })
      expect(english.help).toContain('findahelpline.com')
      const traditional = await plain(offline, chat, { text: '我真的不想活了', timeZone })
      expect(traditional.help).toContain('1925')
      const simplified = await plain(offline, chat, { text: '我想自杀，没有人在乎我', timeZone })
      expect(simplified.help).toContain('12356')
    },
  )

  test('the country chosen in settings wins over the time zone; null goes back to automatic', async () => {
    const chat = await startChat(offline)
    const set = await offline.json('PATCH', '/self/profile', { cookie: chat.cookie, body: { crisisCountry: 'GB' } })
    expect(set.status).toBe(200)
    expect(set.body.crisisCountry).toBe('GB')
    expect((await plain(offline, chat, { text: 'I want to die', timeZone: 'Asia/Taipei' })).help).toContain('116 123')
    await offline.json('PATCH', '/self/profile', { cookie: chat.cookie, body: { crisisCountry: null } })
    expect((await plain(offline, chat, { text: 'I want to die', timeZone: 'Asia/Taipei' })).help).toContain('1925')
    const bad = await offline.json('PATCH', '/self/profile', { cookie: chat.cookie, body: { crisisCountry: 'Narnia' } })
    expect(bad.status).toBe(400)
  })

  test('GET /help-lines gives the same choice for the "Get help now" control, in the asked language', async () => {
    const chat = await startChat(offline)
    const ny = await offline.json('GET', '/help-lines?timeZone=America%2FNew_York&language=ENUS', { cookie: chat.cookie })
    expect(ny.status).toBe(200)
    expect(ny.body).toMatchObject({ region: 'US', country: 'US', basis: 'timeZone' })
    expect(ny.body.lines[0].text).toContain('988')
    expect(ny.body.lines[0].source).toMatch(/^https:\/\//)
    const tw = await offline.json('GET', '/help-lines?timeZone=Asia%2FTaipei&language=ZHTW', { cookie: chat.cookie })
    expect(tw.body.lines[0].text).toContain('安心專線')
    const none = await offline.json('GET', '/help-lines?language=ZHCN', { cookie: chat.cookie })
    expect(none.body).toMatchObject({ region: 'CN', basis: 'language' })
    expect((await offline.json('GET', '/help-lines')).status).toBe(401)
  })
})

describe('without a model', () => {
  test.each([
    ['en-US', 'honestly everyone would be better off without me, i have the pills ready'],
    ['zh-TW', '我已經寫好遺書了，今晚就要結束一切'],
    ['zh-CN', '活着好累，真的不想活了，没有人会在乎我'],
  ] as const)('%s: the offline companion gives its fixed supportive reply and never repeats the person', async (language, text) => {
    const chat = await startChat(offline)
    const reply = await plain(offline, chat, { text })
    expect(reply.help).not.toBeNull()
    const companion = reply.text.slice(reply.help!.length).trim()
    expect(companion).toBe(SUPPORTIVE_REPLY[language])
    // No run of the person's words comes back (five characters of Chinese, three words of English).
    const pieces = /\p{Script=Han}/u.test(text)
      ? Array.from({ length: text.length - 4 }, (_, i) => text.slice(i, i + 5))
      : text.split(' ').slice(0, -2).map((_, i, words) => text.split(' ').slice(i, i + 3).join(' '))
    for (const piece of pieces) expect(companion).not.toContain(piece)
    expect(companion).not.toMatch(/small step|一小步|一步/)
  })
})

describe('conversation context', () => {
  test('a short "yes" after the companion asked about safety gets help again', async () => {
    const chat = await startChat(offline)
    await plain(offline, chat, { text: 'I want to kill myself' })
    for (const text of ['yes', 'tonight', 'I have']) {
      const reply = await plain(offline, chat, { text })
      expect(reply.help, text).not.toBeNull()
    }
  })

  test('嗯 / 對 after a concerning message count; after an ordinary one they do not', async () => {
    const worried = await startChat(offline)
    await plain(offline, worried, { text: '我有時候會想消失' })
    expect((await plain(offline, worried, { text: '嗯' })).help).not.toBeNull()
    const calm = await startChat(offline)
    await plain(offline, calm, { text: '今天跟同事吃了拉麵' })
    expect((await plain(offline, calm, { text: '對' })).help).toBeNull()
    expect((await plain(offline, calm, { text: 'yes' })).help).toBeNull()
  })
})

describe("the model's second opinion", () => {
  const uncertain = 'i feel so hopeless lately'

  test('a message the rules find uncertain is put to the model once; its yes gives help first', async () => {
    verdict = () => ({ risk: true })
    const chat = await startChat(ollama)
    const before = classifications().length
    const events = await stream(ollama, chat, { text: uncertain, timeZone: 'Australia/Sydney' })
    expect(classifications().length).toBe(before + 1)
    const asked = classifications().at(-1)!.body
    expect(asked.format).toMatchObject({ type: 'object', required: ['risk'] })
    expect(events.map((e) => e.event)[1]).toBe('help')
    expect(events.at(-1)!.data.help).toContain('13 11 14')
  })

  test('its no leaves the reply ordinary', async () => {
    verdict = () => ({ risk: false })
    const chat = await startChat(ollama)
    const reply = await plain(ollama, chat, { text: uncertain })
    expect(reply.help).toBeNull()
  })

  test('a clear crisis is never put to the model, so it cannot be talked out of help', async () => {
    verdict = () => ({ risk: false })
    const chat = await startChat(ollama)
    const before = classifications().length
    const reply = await plain(ollama, chat, { text: 'I am going to kill myself this weekend' })
    expect(classifications().length).toBe(before)
    expect(reply.help).not.toBeNull()
  })

  test('an ordinary message is never put to the model', async () => {
    const chat = await startChat(ollama)
    const before = classifications().length
    await plain(ollama, chat, { text: 'Had a good run by the river this morning' })
    expect(classifications().length).toBe(before)
  })

  test('a model slower than two seconds is not waited for: the rules decide and the reply comes', async () => {
    verdict = () => new Promise((resolve) => setTimeout(() => resolve({ risk: true }), 5000))
    const chat = await startChat(ollama)
    const started = performance.now()
    const reply = await plain(ollama, chat, { text: uncertain })
    const took = performance.now() - started
    expect(reply.help).toBeNull()
    expect(took).toBeLessThan(4500)
    expect(took).toBeGreaterThanOrEqual(1900)
  })
})

describe('method seeking and model failure', () => {
  test.each(['what is the most painless way to die', '普拿疼吃幾顆會死？', '有没有不疼的死法'])(
    '"%s" gets no method information from any provider: the model is not asked at all',
    async (text) => {
      const chat = await startChat(ollama)
      const before = chatCalls().length
      const reply = await plain(ollama, chat, { text })
      expect(chatCalls().length).toBe(before)
      expect(reply.help).not.toBeNull()
      expect(Object.values(SUPPORTIVE_REPLY)).toContain(reply.text.slice(reply.help!.length).trim())
    },
  )

  test('when the model fails, a person in crisis gets the help block and the supportive reply, not an error', async () => {
    const chat = await startChat(ollama)
    fake.queueReplies({ status: 500, error: 'model crashed' })
    const events = await stream(ollama, chat, { text: 'I want to end my life', timeZone: 'America/New_York' })
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect(done.data.help).toContain('988')
    expect(done.data.text).toContain(SUPPORTIVE_REPLY['en-US'])
    const roles = await ollama.ctx.sql<{ role: string }[]>`select role from messages where conversation_id = ${chat.conversationId} order by created_at, id`
    expect(roles.map((r) => r.role)).toEqual(['USER', 'ASSISTANT'])
  })
})

describe('privacy', () => {
  test('nothing of a crisis message reaches the log, even when the second opinion fails', async () => {
    const lines: string[] = []
    const original = { log: console.log, warn: console.warn, error: console.error, info: console.info }
    for (const level of ['log', 'warn', 'error', 'info'] as const) console[level] = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
    try {
      fake.queueReplies({ status: 500, error: 'classifier down' })
      const chat = await startChat(ollama)
      await plain(ollama, chat, { text: 'i feel so hopeless about my secret plan' })
    } finally {
      Object.assign(console, original)
    }
    expect(lines.join('\n')).not.toContain('hopeless')
    expect(lines.join('\n')).not.toContain('secret plan')
  })
})

describe('the onboarding story', () => {
  const story = (app: TestApp, cookie: string, body: object) => app.json('POST', '/chatbots/training-data/story-telling', { cookie, body })

  test.each([
    ['zh-TW', '其實我最近一直想死，活著好累', 'Asia/Taipei', '1925'],
    ['en-US', "honestly i don't want to wake up tomorrow", 'America/New_York', '988'],
    ['zh-CN', '遗书我已经写好了', 'Asia/Shanghai', '12356'],
  ])('%s: an answer about suicide gets help lines instead of the next question, with no model call', async (language, text, timeZone, line) => {
    const { cookie } = await ollama.signUp()
    await ollama.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    expect((await story(ollama, cookie, { text: '', userPreferredLanguage: language, receiveHelloMessage: true })).status).toBe(200)
    const before = chatCalls().length
    const res = await story(ollama, cookie, { text, userPreferredLanguage: language, timeZone })
    expect(res.status).toBe(200)
    expect(chatCalls().length).toBe(before)
    const guide = res.body.newEntries.at(-1)
    expect(guide).toMatchObject({ role: 'GUIDE', help: true })
    expect(guide.content).toContain(line)
    expect(guide.content).not.toContain('](tel:')
    expect(res.body.isProcessCompleted).toBe(false)
    // The story goes on afterwards, and the model never reads the help line as part of it.
    const next = await story(ollama, cookie, { text: 'I moved to a new city last year and it has been lonely', userPreferredLanguage: language })
    expect(next.body.newEntries.at(-1)).toMatchObject({ role: 'GUIDE', help: false })
    const sent = JSON.stringify(chatCalls().at(-1)!.body.messages)
    expect(sent).not.toContain(line)
  })

  test('an ordinary answer goes on with the story', async () => {
    const { cookie } = await ollama.signUp()
    await ollama.json('POST', '/chatbots/training-data/user-name', { cookie, body: { userName: 'Ari' } })
    await story(ollama, cookie, { text: '', userPreferredLanguage: 'en', receiveHelloMessage: true })
    const res = await story(ollama, cookie, { text: 'This exam season is killing me lol', userPreferredLanguage: 'en', timeZone: 'Europe/London' })
    expect(res.body.newEntries.at(-1)).toMatchObject({ role: 'GUIDE', help: false })
  })
})
