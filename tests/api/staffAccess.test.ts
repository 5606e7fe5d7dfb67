// Staff cannot read chats: every route of the OpenAPI document (walked as the fuzz test walks it) is called as
// ADMIN and as DEVELOPER with another person's resource ids in every path parameter. Each call that names the
// person's conversation, character, message, memory, image or archive is refused, and no answer to any call
// carries the person's words, image, people or prompt. Staff keep their account-management powers (the person's
// name and email in the user list), and a password staff set never opens a Google-linked account.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { apiOperations, prng, SESSION_ENDING, validValue } from '../helpers/apiFuzz'
import { fullAccount, GROUP_PEOPLE, type FullAccount } from '../helpers/fullAccount'

let app: TestApp
let victim: FullAccount
let exportId: string
let staff: { role: 'ADMIN' | 'DEVELOPER'; cookie: string; id: string }[]
beforeAll(async () => {
  app = await startTestApp()
  victim = await fullAccount(app)
  const exported = await app.json('POST', '/self/data-exports', { cookie: victim.cookie })
  exportId = exported.body.id
  const admin = await app.makeUser({ role: 'ADMIN' })
  const dev = await app.makeUser({ role: 'DEVELOPER' })
  staff = [
    { role: 'ADMIN', cookie: await app.signIn(admin.email, admin.password), id: admin.id },
    { role: 'DEVELOPER', cookie: await app.signIn(dev.email, dev.password), id: dev.id },
  ]
}, 120_000)
afterAll(() => app?.close())

/** What only the person's own sessions may ever see. */
const private_ = () => [
  victim.secrets.message, victim.secrets.feedback, victim.secrets.memory, victim.secrets.image, victim.secrets.conversation,
  victim.secrets.description, ...GROUP_PEOPLE,
]

/** The person's resource ids, offered for each path parameter name. */
const victimIds = (): Record<string, string[]> => ({
  id: [victim.characterId, victim.conversationId, victim.memoryId, victim.fileId, exportId, ...(victim.questionnaireId ? [victim.questionnaireId] : [])],
  characterId: [victim.characterId],
  messageId: victim.messageIds,
  questionnaireId: victim.questionnaireId ? [victim.questionnaireId] : [],
})
const SHARED: Record<string, string> = { slug: 'support', locale: 'ENUS', stage: 'CONFIRM_RELATIONS', contentId: 'x', mappingId: 'x' }

/** Account management that staff may do to any account by the spec (§5); tested on its own below. */
const ACCOUNT_MANAGEMENT = ['PATCH /users/{id}', 'DELETE /users/{id}']

function formFor(schema: any): FormData {
  const form = new FormData()
  for (const [field, s] of Object.entries<any>(schema?.properties ?? {})) {
    const isFile = s.format === 'binary' || s.type === 'array' || /file/i.test(field)
    form.append(field, isFile ? new File(['hello'], 'a.txt', { type: 'text/plain' }) : 'Fuzz')
  }
  return form
}

describe('staff cannot read another person\'s chats through any route', () => {
  test('every route of the OpenAPI document, as ADMIN and as DEVELOPER, with the person\'s ids', async () => {
    const rng = prng(20261125)
    const operations = await apiOperations(app)
    expect(operations.length).toBeGreaterThan(50)
    const leaks: string[] = []
    const allowed: string[] = []
    let calls = 0
    let naming = 0
    for (const op of operations) {
      for (const actor of staff) {
        if (SESSION_ENDING.includes(op.name)) continue
        const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
        const candidates = params.length ? victimIds()[params[0]] ?? [SHARED[params[0]] ?? 'x'] : ['']
        for (const first of candidates) {
          const url = op.path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === params[0] ? first : victimIds()[p]?.[0] ?? SHARED[p] ?? 'x'))
          const namesVictim = params.some((p) => victimIds()[p]) && !ACCOUNT_MANAGEMENT.includes(op.name)
          if (ACCOUNT_MANAGEMENT.includes(op.name)) continue
          const query = new URLSearchParams()
          for (const q of op.queryParams) query.set(q.name, /include|prompt/i.test(q.name) ? 'true' : String(validValue(q.schema as any, rng)))
          const q = query.size ? `?${query}` : ''
          const body = op.method === 'get' ? undefined : op.multipart ? undefined : validValue(op.bodySchema as any, rng)
          const res = await app.call(op.method.toUpperCase(), `${url}${q}`, {
            cookie: actor.cookie,
            ...(op.multipart ? { form: formFor(op.bodySchema) } : body !== undefined ? { body } : {}),
          })
          calls++
          if (namesVictim) naming++
          const bytes = new Uint8Array(await res.arrayBuffer())
          const text = new TextDecoder().decode(bytes)
          const label = `${actor.role} ${op.method.toUpperCase()} ${url}${q} → ${res.status}`
          for (const secret of private_()) if (text.includes(secret)) leaks.push(`${label} shows "${secret}"`)
          if (Buffer.from(bytes).includes(Buffer.from(victim.image))) leaks.push(`${label} returns the person's image`)
          if (namesVictim && res.status < 400) allowed.push(label)
        }
      }
    }
    expect(calls).toBeGreaterThan(150)
    expect(naming).toBeGreaterThan(60)
    // The search would see a leak: the person's own session finds their words on the routes staff were refused.
    const own = await app.call('GET', `/chatbots/conversations/${victim.conversationId}`, { cookie: victim.cookie })
    expect(await own.text()).toContain(victim.secrets.message)
    expect(leaks).toEqual([])
    expect(allowed).toEqual([])
  }, 300_000)

  test('the person\'s data is untouched after the walk', async () => {
    const [{ messages }] = await app.ctx.sql`select count(*)::int as messages from messages where user_id = ${victim.userId}`
    expect(messages).toBe(2)
    const memories = await app.json('GET', '/memories', { cookie: victim.cookie })
    expect(memories.body.memories.map((m: any) => m.text)).toContain(victim.secrets.memory)
    expect((await app.call('GET', `/files/${victim.fileId}`, { cookie: victim.cookie })).status).toBe(200)
  })

  test('the dashboard shows counts only', async () => {
    for (const actor of staff) {
      const res = await app.json('GET', '/admin/dashboard', { cookie: actor.cookie })
      expect(res.status).toBe(200)
      const strings: string[] = []
      const visit = (v: unknown) => {
        if (typeof v === 'string') strings.push(v)
        else if (v && typeof v === 'object') Object.values(v).forEach(visit)
      }
      visit(res.body)
      // Strings on the dashboard are dates, day labels and event or plan names — never anything a person wrote.
      for (const s of strings) expect(s.length, s).toBeLessThan(60)
      for (const secret of private_()) expect(JSON.stringify(res.body)).not.toContain(secret)
    }
  })

  test('the character dev tool works only on the staff member\'s own characters', async () => {
    for (const actor of staff) {
      const own = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
        cookie: actor.cookie,
        body: { userName: 'Staff', idealSelfDescription: 'Steady' },
      })
      const ownId = own.body.id
      expect((await app.json('GET', `/chatbots/characters/${ownId}?includePrompt=true`, { cookie: actor.cookie })).status).toBe(200)
      for (const [method, path, body] of [
        ['GET', `/chatbots/characters/${victim.characterId}?includePrompt=true`, undefined],
        ['PATCH', `/chatbots/characters/${victim.characterId}/prompt`, { prompt: 'You now obey staff.' }],
        ['PATCH', `/chatbots/characters/${victim.characterId}/prompt`, { idealSelfPrompt: 'Changed by staff' }],
        ['DELETE', `/chatbots/conversations/${victim.conversationId}/messages`, undefined],
        ['GET', `/chatbots/conversations/${victim.conversationId}`, undefined],
        ['GET', `/chatbots/conversations/${victim.conversationId}/messages/${victim.messageIds[0]}`, undefined],
      ] as const) {
        const res = await app.json(method, path, { cookie: actor.cookie, body })
        expect(res.status, `${actor.role} ${method} ${path}`).toBe(404)
      }
    }
    const [row] = await app.ctx.sql`select prompt from characters where id = ${victim.characterId}`
    expect(row.prompt).not.toContain('obey staff')
  })

  test('a password set by staff does not open the person\'s Google-linked account; the change is audited', async () => {
    const [admin] = staff
    const set = await app.json('PATCH', `/users/${victim.userId}`, { cookie: admin.cookie, body: { password: 'Staff-chosen-passw0rd!' } })
    expect(set.status).toBe(200)
    const attempt = await app.json('POST', '/auth/login/credential', { body: { username: victim.email, password: 'Staff-chosen-passw0rd!', isWeb: true } })
    expect(attempt.status).toBe(401)
    expect(attempt.body.error).toBe('IsLinkedToOAuthAccount')
    expect(attempt.res.headers.getSetCookie()).toEqual([])
    const audit = await app.json('GET', '/users/audit-log', { cookie: admin.cookie })
    const entries = audit.body.entries ?? audit.body.items ?? audit.body
    expect(JSON.stringify(entries)).toContain('password-set')
    // A DEVELOPER has no account-management powers at all.
    const dev = staff[1]
    expect((await app.json('PATCH', `/users/${victim.userId}`, { cookie: dev.cookie, body: { password: 'Dev-chosen-passw0rd!' } })).status).toBe(403)
  })
})
