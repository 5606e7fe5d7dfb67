// Two instances of `npm start` on one PostgreSQL database behind nginx (deploy/nginx.conf, round-robin): nothing a
// person does may notice which instance answered. Sessions, exact limits, replies that stream across instances,
// admin edits seen everywhere, and an instance killed mid-reply and mid-job losing neither.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultReply, startFakeOllama, type ReplyInput, type ScriptedReply } from '../helpers/fakeOllama'
import { readEvents, type StreamEvent } from '../unit/chat/chatFixtures'
import { freshDatabase, nginxPath, startCluster, type Cluster } from './cluster'

const DATABASE_URL = process.env.DATABASE_URL
const NGINX = nginxPath()
const why = !DATABASE_URL
  ? 'DATABASE_URL is not set: several processes cannot share the embedded database (PGlite is one process)'
  : !NGINX
    ? 'nginx is not installed (apt-get install -y nginx); .ci/run installs it'
    : null
if (why) console.warn(`Multi-instance journey skipped: ${why}`)

const ADMIN_EMAIL = 'admin@scale.test'
const ADMIN_PASSWORD = 'Scale-admin-Passw0rd!'
const NOW = 'Sunday 2026-11-22 10:30:00'
const MODEL = 'qwen2.5:3b-instruct'

/** The replies this journey scripts, by what the person wrote; anything else gets the fakes' default. */
const SLOW_CHUNKS = ['Take ', 'a ', 'breath. ', 'You ', 'have ', 'done ', 'hard ', 'things ', 'before, ', 'and ', 'you ', 'will ', 'again.']
const ENDLESS_CHUNKS = Array.from({ length: 200 }, (_, i) => `word${i} `)
let slowPortraits = false
function script(input: ReplyInput): ScriptedReply {
  if (input.schema && JSON.stringify(input.schema).includes('persona') && slowPortraits) return { ...defaultReply(input), chunkDelayMs: 300 }
  if (input.lastUserText === 'tell me slowly') return { chunks: SLOW_CHUNKS, chunkDelayMs: 150 }
  if (input.lastUserText === 'a very long answer please') return { chunks: ENDLESS_CHUNKS, chunkDelayMs: 100 }
  return defaultReply(input)
}
// One model server per instance, answering alike: which one is asked tells which instance does the work.
const models = [startFakeOllama({ models: [MODEL], reply: script }), startFakeOllama({ models: [MODEL], reply: script })]

let cluster: Cluster
let db: Awaited<ReturnType<typeof freshDatabase>>
let A: string
let B: string
let proxy: string

interface Answer {
  status: number
  body: any
  cookie: string | null
  /** The instance nginx passed the request to. */
  upstream: string | null
}

async function call(origin: string, method: string, path: string, o: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${origin}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(o.cookie ? { cookie: o.cookie } : {}),
      // Same-origin writes: the app refuses cross-site ones that carry a cookie.
      ...(method !== 'GET' ? { origin } : {}),
      ...o.headers,
    },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  })
}

async function json(origin: string, method: string, path: string, o: Parameters<typeof call>[3] = {}): Promise<Answer> {
  const res = await call(origin, method, `/api/v1${path}`, o)
  const text = await res.text()
  const setCookie = res.headers.get('set-cookie')
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    cookie: setCookie ? setCookie.split(';')[0] : null,
    upstream: res.headers.get('x-upstream'),
  }
}

let people = 0
/** A new person signed in through the development identity provider: token from one origin, session from another. */
async function signUp(tokenFrom: string, signInAt: string) {
  const email = `person${++people}.${Date.now()}@scale.test`
  const token = await json(tokenFrom, 'POST', '/auth/dev/token', { body: { email, name: 'Scale Person' } })
  expect(token.status).toBe(200)
  const login = await json(signInAt, 'POST', '/auth/login/oauth', { body: { idToken: token.body.idToken, strategy: 'google', isWeb: true } })
  expect(login.status).toBe(200)
  return { email, cookie: login.cookie!, userId: login.body.user.id as string }
}

async function adminCookie(origin: string) {
  const res = await json(origin, 'POST', '/auth/login/credential', {
    body: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD, isWeb: true },
    headers: { 'x-forwarded-for': '203.0.113.200' },
  })
  expect(res.status).toBe(200)
  return res.cookie!
}

/** A conversation with a ready character (built directly: the build job has its own test below). */
async function chatFor(person: { cookie: string; userId: string }) {
  const [character] = await cluster.sql<{ id: string }[]>`
    insert into characters (user_id, name, is_ready, prompt)
    values (${person.userId}, 'Mei', true, 'You are Mei, the calm and brave ideal self of the person.') returning id`
  const conversation = await json(proxy, 'POST', '/chatbots/conversations', { cookie: person.cookie, body: { name: `Mei ${Date.now()}` } })
  expect(conversation.status).toBe(200)
  return { conversationId: conversation.body.id as string, path: `/chatbots/conversations/${conversation.body.id}/character/${character.id}` }
}

/** Events of a stream as they come, kept in order, with a way to wait for one. */
function collect(res: Response) {
  const events: StreamEvent[] = []
  let notify: (() => void) | null = null
  const finished = (async () => {
    for await (const ev of readEvents(res.body!)) {
      events.push(ev)
      notify?.()
    }
  })().catch((e: Error) => {
    // The instance was killed mid-stream: the connection is cut.
    events.push({ event: 'cut', data: e.message, at: performance.now() })
  })
  const until = async (done: (evs: StreamEvent[]) => boolean, ms = 15_000) => {
    const end = Date.now() + ms
    while (!done(events)) {
      if (Date.now() > end) throw new Error(`stream: not seen in time; got ${JSON.stringify(events.map((e) => e.event))}`)
      await new Promise<void>((resolve) => {
        notify = resolve
        setTimeout(resolve, 100)
      })
    }
    return events
  }
  return { events, until, finished }
}

const deltasOf = (events: StreamEvent[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.t as string)

describe.skipIf(Boolean(why))('two instances behind nginx on one PostgreSQL database', () => {
  beforeAll(async () => {
    db = await freshDatabase(DATABASE_URL!, `scale_${process.pid}`)
    cluster = await startCluster({
      databaseUrl: db.url,
      basePort: Number(process.env.SCALE_PORT ?? 6100),
      instances: 2,
      tagUpstream: true,
      env: {
        LLM_PROVIDER: 'ollama',
        OLLAMA_MODEL: MODEL,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        STORY_EXCHANGES: '2',
        // Short enough for a test to watch a killed instance's work be taken over.
        JOB_LEASE_SECONDS: '2',
        REPLY_WRITER_GONE_SECONDS: '5',
      },
      envOf: (i) => ({ OLLAMA_HOST: models[i].url }),
    })
    ;[A, B] = cluster.instances.map((i) => i.url)
    proxy = cluster.proxy!
  })

  afterAll(async () => {
    await cluster?.stop()
    await db?.drop()
    for (const m of models) m.stop()
  })

  test('started together, they made the first admin once; a session made on one is good on both and through the proxy', async () => {
    const admins = await cluster.sql<{ email: string }[]>`select email from users where role = 'ADMIN'`
    expect(admins.map((a) => a.email)).toEqual([ADMIN_EMAIL])
    expect(cluster.instances.map((i) => i.output().includes('First admin created')).filter(Boolean)).toHaveLength(1)

    const admin = await adminCookie(A)
    for (const origin of [A, B]) expect((await json(origin, 'GET', '/self', { cookie: admin })).body.email).toBe(ADMIN_EMAIL)

    // A token minted by A signs in at B; the session then answers on every instance the proxy picks.
    const person = await signUp(A, B)
    const upstreams = new Set<string>()
    for (let i = 0; i < 6; i++) {
      const me = await json(proxy, 'GET', '/self', { cookie: person.cookie })
      expect(me.status).toBe(200)
      expect(me.body.email).toBe(person.email)
      upstreams.add(me.upstream!)
    }
    expect(upstreams).toEqual(new Set(cluster.instances.map((i) => i.address)))
    // The site's pages know the person on both instances too.
    for (const origin of [A, B]) {
      const page = await call(origin, 'GET', '/app/settings', { cookie: person.cookie })
      expect(page.status).toBe(200)
    }
  })

  test('200 concurrent sends spread over both instances: exactly the messages left get through', async () => {
    const person = await signUp(proxy, proxy)
    const chat = await chatFor(person)
    await cluster.sql`
      update users set message_limit = 100, message_count = 63, message_reset_at = now() + interval '7 days' where id = ${person.userId}`
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        json(proxy, 'POST', `${chat.path}/chat?sse=false`, { cookie: person.cookie, body: { text: `concurrent message ${i}`, currentDateTime: NOW } }),
      ),
    )
    const tally: Record<number, number> = {}
    for (const a of answers) tally[a.status] = (tally[a.status] ?? 0) + 1
    const odd = answers.find((a) => a.status !== 200 && a.status !== 403)
    expect(tally, JSON.stringify(odd?.body)).toEqual({ 200: 37, 403: 163 })
    for (const refused of answers.filter((a) => a.status === 403)) expect(refused.body.error).toBe('MessageLimitReached')
    expect(new Set(answers.map((a) => a.upstream))).toEqual(new Set(cluster.instances.map((i) => i.address)))
    const [row] = await cluster.sql<{ message_count: number }[]>`select message_count from users where id = ${person.userId}`
    expect(row.message_count).toBe(100)
    const [stored] = await cluster.sql<{ n: number }[]>`
      select count(*)::int as n from messages where conversation_id = ${chat.conversationId} and role = 'USER'`
    expect(stored.n).toBe(37)
  })

  test('a reply A is writing is read live through B: the same deltas in the same order, then done', async () => {
    const person = await signUp(proxy, proxy)
    const chat = await chatFor(person)
    const writing = await call(A, 'POST', `/api/v1${chat.path}/chat`, {
      cookie: person.cookie,
      body: { text: 'tell me slowly', currentDateTime: NOW },
      headers: { accept: 'text/event-stream' },
    })
    expect(writing.status).toBe(200)
    const onA = collect(writing)
    const [start] = await onA.until((evs) => evs.some((e) => e.event === 'delta'))
    const botMessageId = start.data.botMessageId as string

    // B joins mid-reply: it gets what was written so far, then each new delta as A writes it.
    const reading = await call(B, 'GET', `/api/v1/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}/stream`, {
      cookie: person.cookie,
    })
    expect(reading.status).toBe(200)
    expect(reading.headers.get('content-type')).toContain('text/event-stream')
    const onB = collect(reading)
    await onB.until((evs) => evs.some((e) => e.event === 'done'))
    await onA.until((evs) => evs.some((e) => e.event === 'done'))

    expect(deltasOf(onB.events)).toEqual(SLOW_CHUNKS)
    expect(deltasOf(onA.events).join('')).toBe(SLOW_CHUNKS.join(''))
    const doneOnA = onA.events.find((e) => e.event === 'done')!
    const doneOnB = onB.events.find((e) => e.event === 'done')!
    expect(doneOnB.data).toEqual(doneOnA.data)
    expect(doneOnB.data.text).toBe(SLOW_CHUNKS.join(''))
    // Live, not replayed at the end: B had deltas well before A finished.
    const firstOnB = onB.events.find((e) => e.event === 'delta')!
    expect(doneOnA.at - firstOnB.at).toBeGreaterThan(500)

    // Afterwards, through the proxy (either instance), the finished reply is read whole.
    for (let i = 0; i < 2; i++) {
      const again = await call(proxy, 'GET', `/api/v1/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}/stream`, {
        cookie: person.cookie,
      })
      const after = collect(again)
      await after.until((evs) => evs.some((e) => e.event === 'done'))
      expect(deltasOf(after.events).join('')).toBe(SLOW_CHUNKS.join(''))
    }
    // Nobody else's reply can be read.
    const stranger = await signUp(proxy, proxy)
    const refused = await json(B, 'GET', `/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}/stream`, { cookie: stranger.cookie })
    expect(refused.status).toBe(404)
  })

  test('an admin edit of the site texts on A shows on B within a second', async () => {
    const admin = await adminCookie(A)
    const page = async (origin: string) => (await call(origin, 'GET', '/login')).text()
    expect(await page(B)).toContain('Consult Your Best Self')
    // B has the texts cached now; the edit must reach it anyway.
    await page(B)
    const docs = await json(A, 'GET', '/content-editors/locales', { cookie: admin })
    const en = docs.body.locales.find((d: { id: string }) => d.id === 'ENUS')
    const tagline = `Consult Your Best Self, edited ${Date.now()}`
    const saved = await json(A, 'PATCH', '/content-editors/locales', {
      cookie: admin,
      body: { locales: [{ id: 'ENUS', content: { ...en.content, app: { ...en.content.app, tagline } } }] },
    })
    expect(saved.status).toBe(200)
    const editedAt = Date.now()
    while (!(await page(B)).includes(tagline)) {
      expect(Date.now() - editedAt).toBeLessThan(1000)
      await Bun.sleep(25)
    }
    expect(await page(A)).toContain(tagline)
  })

  test('failure limits hold across both: wrong passwords spread over the instances lock after five', async () => {
    const attempt = (password: string, source: string) =>
      json(proxy, 'POST', '/auth/login/credential', {
        body: { username: ADMIN_EMAIL, password, isWeb: true },
        headers: { 'x-forwarded-for': source },
      })
    const one = []
    for (let i = 0; i < 8; i++) one.push(await attempt(`Wrong-${i}-Passw0rd!`, '198.51.100.7'))
    expect(one.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429])
    expect(new Set(one.map((a) => a.upstream)).size).toBe(2)
    expect(one[5].body.message).toBe('Too many failed sign-in attempts, please try again in 15 minutes')

    // Another source gets one try at an account under attack (it has not failed on it before), and no more.
    const other = await attempt('Other-guess-Passw0rd1!', '198.51.100.8')
    expect(other.status).toBe(401)
    expect((await attempt('Other-guess-Passw0rd2!', '198.51.100.8')).status).toBe(429)

    // All at once, on another account, from a third source: still exactly five are judged, over both instances.
    const target = `someone.${Date.now()}@scale.test`
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        json(proxy, 'POST', '/auth/login/credential', {
          body: { username: target, password: `Burst-${i}-Passw0rd!`, isWeb: true },
          headers: { 'x-forwarded-for': '198.51.100.9' },
        }),
      ),
    )
    expect(burst.filter((a) => a.status === 401)).toHaveLength(5)
    expect(burst.filter((a) => a.status === 429)).toHaveLength(15)
    expect(new Set(burst.map((a) => a.upstream)).size).toBe(2)

    // The admin, from their own address, is not locked out.
    expect((await attempt(ADMIN_PASSWORD, '203.0.113.9')).status).toBe(200)
  })

  test('A killed with SIGKILL mid-reply and mid-job: the reply is failed and refunded and its reader told; B finishes the job', async () => {
    // A reply A writes, read from B.
    const person = await signUp(proxy, proxy)
    const chat = await chatFor(person)
    const [before] = await cluster.sql<{ message_count: number }[]>`select message_count from users where id = ${person.userId}`
    const writing = await call(A, 'POST', `/api/v1${chat.path}/chat`, {
      cookie: person.cookie,
      body: { text: 'a very long answer please', currentDateTime: NOW },
      headers: { accept: 'text/event-stream' },
    })
    const onA = collect(writing)
    const [start] = await onA.until((evs) => evs.some((e) => e.event === 'delta'))
    const botMessageId = start.data.botMessageId as string
    const onB = collect(
      await call(B, 'GET', `/api/v1/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}/stream`, { cookie: person.cookie }),
    )
    await onB.until((evs) => deltasOf(evs).length >= 3)

    // A character build started on A, and running there (its model is asked for the portrait, slowly).
    const builder = await signUp(A, A)
    slowPortraits = true
    await json(A, 'POST', '/chatbots/training-data/user-name', { cookie: builder.cookie, body: { userName: 'Ari' } })
    await json(A, 'POST', '/chatbots/training-data/improved-ideal-self-description', {
      cookie: builder.cookie,
      body: { idealSelfDescription: 'Brave enough to ask for help' },
    })
    const created = await json(A, 'POST', '/chatbots/characters?skipChatHistoryUpload=true', {
      cookie: builder.cookie,
      body: { userName: 'Ari', idealSelfDescription: 'Brave enough to ask for help' },
    })
    expect(created.status).toBe(200)
    const characterId = created.body.characterId as string
    const askedForPortrait = (i: number) => models[i].chats().some((r) => JSON.stringify(r.body.format ?? {}).includes('persona'))
    const until = Date.now() + 15_000
    while (!askedForPortrait(0) && !askedForPortrait(1) && Date.now() < until) await Bun.sleep(50)
    expect(askedForPortrait(0), 'A (where the job was enqueued and kicked) runs it').toBe(true)
    const [job] = await cluster.sql<{ id: string; status: string; attempts: number }[]>`
      select id, status, attempts from jobs where character_id = ${characterId} and kind = 'build-character'`
    expect(job).toMatchObject({ status: 'RUNNING', attempts: 1 })

    const killedAt = Date.now()
    await cluster.instances[0].kill()
    slowPortraits = false

    // The reader on B is told, within the grace period and a sweep (REPLY_WRITER_GONE_SECONDS=5).
    const events = await onB.until((evs) => evs.some((e) => e.event === 'error'), 20_000)
    const failure = events.find((e) => e.event === 'error')!
    expect(failure.data).toEqual({ error: 'BotResponseFailureException', message: 'No response was returned from the model' })
    expect(Date.now() - killedAt).toBeLessThan(15_000)
    // The page that was reading from A saw its connection cut (and then reads the stream or the message through the proxy).
    expect(onA.events.some((e) => e.event === 'cut')).toBe(true)
    // The turn is gone and the message given back; the page polling the reply gets a 404.
    const [after] = await cluster.sql<{ message_count: number }[]>`select message_count from users where id = ${person.userId}`
    expect(after.message_count).toBe(before.message_count)
    expect((await json(proxy, 'GET', `/chatbots/conversations/${chat.conversationId}/messages/${botMessageId}`, { cookie: person.cookie })).status).toBe(404)

    // B takes the job over once A's lease ends and finishes the character.
    const ready = Date.now() + 30_000
    let isReady = false
    while (!isReady && Date.now() < ready) {
      isReady = (await json(proxy, 'GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie: builder.cookie })).body.isReady
      if (!isReady) await Bun.sleep(200)
    }
    expect(isReady).toBe(true)
    expect(askedForPortrait(1)).toBe(true)
    const finished = Date.now() + 5_000
    let row = job
    while (row.status !== 'SUCCEEDED' && Date.now() < finished) {
      ;[row] = await cluster.sql<typeof job[]>`select id, status, attempts from jobs where id = ${job.id}`
      await Bun.sleep(100)
    }
    expect(row).toMatchObject({ status: 'SUCCEEDED', attempts: 2 })

    // The proxy keeps serving from the instance that is left.
    for (let i = 0; i < 4; i++) expect((await json(proxy, 'GET', '/health')).status).toBe(200)
  })
})
