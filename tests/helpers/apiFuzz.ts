// A fuzzer driven by the API's own OpenAPI document: for every route and role it sends bodies and queries of
// wrong types, missing and extra fields, control characters and lone surrogates, megabyte strings, deep nesting
// and junk path parameters, and records any 5xx, any answer slower than the limit, and any refused request
// (4xx) that changed the database. Seeded, so a run can be repeated exactly.
import type { TestApp } from './testApp'
import { NOW_TEXT } from '../unit/chat/chatFixtures'

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  const?: unknown
  enum?: unknown[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  format?: string
}
type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}

export interface Actor {
  role: 'ANONYMOUS' | 'REGULAR' | 'DEVELOPER' | 'ADMIN'
  cookie?: string
  /** Ids the actor owns, offered for path parameters of the same name. */
  ids: Record<string, string[]>
}

export interface FuzzFinding {
  kind: '5xx' | 'slow' | 'changed'
  request: string
  status?: number
  detail: string
}

export interface FuzzResult {
  requests: number
  statuses: Record<string, number>
  findings: FuzzFinding[]
  slowestMs: number
  durations: number[]
}

/** mulberry32: small, fast and good enough to pick cases reproducibly. */
export function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]

const NASTY_STRINGS = [
  'a\u0000b', '\u0000', 'x\ud800', '\udfff', '\ud83d', '\u001b[2J', '\r\n\r\n', '‮evil', '😀👩‍👩‍👧', '<script>alert(1)</script>',
  "' or 1=1 --", '${7*7}', '../../etc/passwd', '%00', 'null', 'undefined', '', ' ', '\t', '0', '-1', '1e309', 'true',
  'javascript:alert(1)', 'A'.repeat(5000), '\uFEFF', '\u200B\u200E', 'é'.normalize('NFD'),
]
const JUNK_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, '', 'x', [], {}, [[]], { a: { b: {} } }, [null], '1', 'NaN']
const JUNK_IDS = ['x', '0', '-1', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '%00', '%ED%A0%80', '..%2F..%2Fetc', 'a'.repeat(3000), '1%27%20or%201%3D1', '%F0%9F%98%80']

function typesOf(schema: Schema | undefined): string[] {
  if (!schema) return []
  if (schema.anyOf || schema.oneOf) return (schema.anyOf ?? schema.oneOf)!.flatMap(typesOf)
  if (schema.const !== undefined) return [typeof schema.const]
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
}

/** A value the schema accepts (as far as a generator can know), to mutate from. */
export function validValue(schema: Schema | undefined, rng: Rng, depth = 0): unknown {
  if (!schema || depth > 6) return 'x'
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return pick(rng, schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) return validValue(pick(rng, alternatives), rng, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string': {
      const len = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12))
      return 'Fuzz text '.padEnd(len, 'z').slice(0, Math.max(len, schema.minLength ?? 0))
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0
      const max = schema.maximum ?? min + 10
      return Math.floor(min + rng() * (max - min + 1))
    }
    case 'boolean':
      return rng() < 0.5
    case 'array':
      return [validValue(schema.items, rng, depth + 1)]
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(k) || rng() < 0.5) out[k] = validValue(v, rng, depth + 1)
      return out
    }
    default:
      return 'x'
  }
}

function deep(levels: number): unknown {
  let v: unknown = 'bottom'
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v }
  return v
}

/** The body mutations: each takes a valid body and the schema, and returns what to send (undefined: no body). */
const BODY_MUTATIONS: Record<string, (body: any, schema: Schema, rng: Rng) => unknown> = {
  valid: (b) => b,
  'no body': () => undefined,
  'wrong root type': (_b, _s, rng) => pick(rng, [[], 'text', 42, null, true, [{}]]),
  'missing required': (b, s, rng) => {
    if (!b || typeof b !== 'object' || !s.required?.length) return {}
    const copy = { ...b }
    delete copy[pick(rng, s.required)]
    return copy
  },
  'extra fields': (b) => ({ ...(b && typeof b === 'object' ? b : {}), __proto__x: 1, extra: 'x', constructor: { prototype: { polluted: true } } }),
  'wrong field type': (b, s, rng) => {
    const keys = Object.keys(s.properties ?? {})
    if (!keys.length) return pick(rng, JUNK_VALUES)
    const key = pick(rng, keys)
    const own = typesOf(s.properties![key])
    const junk = JUNK_VALUES.filter((v) => !own.includes(Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v))
    return { ...(b && typeof b === 'object' ? b : {}), [key]: pick(rng, junk) }
  },
  'nasty strings': (b, s, rng) => {
    const out: Record<string, unknown> = { ...(b && typeof b === 'object' ? b : {}) }
    for (const [k, v] of Object.entries(s.properties ?? {})) if (typesOf(v).includes('string') || !typesOf(v).length) out[k] = pick(rng, NASTY_STRINGS)
    return out
  },
  'megabyte string': (b, s, rng) => {
    const keys = Object.keys(s.properties ?? {})
    return { ...(b && typeof b === 'object' ? b : {}), [keys.length ? pick(rng, keys) : 'text']: 'm'.repeat(1024 * 1024) }
  },
  'deep nesting': (b, s, rng) => {
    const keys = Object.keys(s.properties ?? {})
    return { ...(b && typeof b === 'object' ? b : {}), [keys.length ? pick(rng, keys) : 'x']: deep(pick(rng, [40, 500, 5000])) }
  },
  'malformed json': () => Symbol.for('malformed'),
}

const QUERY_JUNK = ['', 'abc', '-1', '0', '1.5', '1e999', '%00', '%ED%A0%80', 'true', 'null', '[]', 'a'.repeat(3000), '%F0%9F%98%80', '__proto__']

/** A read of what the refused request must not have changed: row counts and the newest row version per table. */
const WATCHED = [
  'users', 'user_identities', 'password_reset_tokens', 'files', 'content_rows', 'locale_docs', 'payment_orders',
  'training_data', 'story_entries', 'characters', 'character_questionnaires', 'character_stage_completions',
  'conversations', 'messages', 'message_files', 'message_feedbacks', 'chat_history_imports', 'relation_nodes', 'relation_edges', 'audit_log',
]

async function fingerprint(app: TestApp): Promise<string> {
  const parts = WATCHED.map((t) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${t})`).join(" || '|' || ")
  const [row] = await app.ctx.sql.unsafe(`select ${parts} as f`)
  return row.f as string
}

export interface FuzzOptions {
  seed: number
  /** Mutations tried per route and actor (all of them when larger than the list). */
  casesPerRoute: number
  /** An answer slower than this is a finding. */
  slowMs?: number
  /** Routes (METHOD /path) never sent with a session: they would end the actor's session or account. */
  anonymousOnly?: string[]
  log?: (s: string) => void
}

/** One operation of the OpenAPI document: `path` without the /api/v1 prefix, `name` as "METHOD /path". */
export interface ApiOperation {
  name: string
  method: string
  path: string
  bodySchema: Schema | undefined
  /** The body is multipart (a file upload) rather than JSON. */
  multipart: boolean
  queryParams: NonNullable<Operation['parameters']>
}

/** Every route of the API's own OpenAPI document except the document itself, in document order. */
export async function apiOperations(app: TestApp): Promise<ApiOperation[]> {
  const doc = (await (await app.call('GET', '/docs/json')).json()) as { paths: Record<string, Record<string, Operation>> }
  const operations: ApiOperation[] = []
  for (const [fullPath, methods] of Object.entries(doc.paths)) {
    const path = fullPath.replace(/^\/api\/v1/, '')
    if (path.startsWith('/docs')) continue
    for (const [method, op] of Object.entries(methods)) {
      const json = op.requestBody?.content?.['application/json']?.schema
      const form = op.requestBody?.content?.['multipart/form-data']?.schema
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method,
        path,
        bodySchema: json ?? form,
        multipart: !json && !!form,
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query'),
      })
    }
  }
  return operations
}

export async function fuzzApi(app: TestApp, actors: Actor[], opts: FuzzOptions): Promise<FuzzResult> {
  const rng = prng(opts.seed)
  const result: FuzzResult = { requests: 0, statuses: {}, findings: [], slowestMs: 0, durations: [] }
  const slowMs = opts.slowMs ?? 5000
  const mutationNames = Object.keys(BODY_MUTATIONS)

  for (const { name, method, path, bodySchema, queryParams } of await apiOperations(app)) {
    for (const actor of actors) {
      if (actor.role !== 'ANONYMOUS' && opts.anonymousOnly?.includes(name)) continue
      const chosen = opts.casesPerRoute >= mutationNames.length
        ? mutationNames
        : Array.from({ length: opts.casesPerRoute }, () => pick(rng, mutationNames))
      for (const mutation of chosen) {
        const url = path.replace(/\{(\w+)\}/g, (_m, param: string) => {
          const own = actor.ids[param] ?? []
          return rng() < 0.5 && own.length ? pick(rng, own) : pick(rng, JUNK_IDS)
        })
        const query = new URLSearchParams()
        for (const p of queryParams) {
          if (rng() < 0.3) continue
          query.set(p.name, mutation === 'valid' ? String(validValue(p.schema, rng)) : pick(rng, QUERY_JUNK))
        }
        if (mutation !== 'valid' && rng() < 0.3) query.set('unexpected', pick(rng, QUERY_JUNK))
        const q = query.size ? `?${query.toString().replace(/%25/g, '%')}` : ''
        const base = validValue(bodySchema, rng)
        const sent = bodySchema || method !== 'get' ? BODY_MUTATIONS[mutation](base, bodySchema ?? {}, rng) : undefined
        const headers: Record<string, string> = {}
        let body: string | undefined
        if (sent === Symbol.for('malformed')) {
          headers['content-type'] = 'application/json'
          body = pick(rng, ['{"a":', '{"a":1}}', '\u0000', '[', '{"__proto__":{"x":1}}', 'nul'])
        } else if (sent !== undefined && method !== 'get' && method !== 'head') {
          headers['content-type'] = 'application/json'
          body = JSON.stringify(sent)
        }
        const label = `${actor.role} ${method.toUpperCase()} ${url}${q.slice(0, 120)} [${mutation}]`
        const before = await fingerprint(app)
        const started = performance.now()
        let status = 0
        let text = ''
        try {
          const res = await Promise.race([
            app.call(method.toUpperCase(), `${url}${q}`, { cookie: actor.cookie, headers, body }),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${slowMs} ms`)), slowMs)),
          ])
          status = res.status
          text = await Promise.race([
            res.text(),
            new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`body not finished within ${slowMs} ms`)), slowMs)),
          ])
        } catch (e) {
          result.findings.push({ kind: 'slow', request: label, detail: String((e as Error).message) })
        }
        const ms = performance.now() - started
        result.durations.push(ms)
        result.slowestMs = Math.max(result.slowestMs, ms)
        result.requests++
        result.statuses[String(status)] = (result.statuses[String(status)] ?? 0) + 1
        if (status >= 500) result.findings.push({ kind: '5xx', request: label, status, detail: text.slice(0, 300) })
        // A refused request changes nothing (sign-in limits count refusals by design and are not watched).
        if (status >= 400 && status < 500 && (await fingerprint(app)) !== before)
          result.findings.push({ kind: 'changed', request: label, status, detail: text.slice(0, 300) })
      }
    }
  }
  opts.log?.(`fuzzed ${result.requests} requests: ${JSON.stringify(result.statuses)}`)
  return result
}

/** Routes that, sent with a session, would end it or empty the actor's account for every later case. */
export const SESSION_ENDING = [
  'DELETE /self', 'GET /auth/sign-out', 'POST /auth/sign-out', 'POST /chatbots/characters/rebuild', 'DELETE /chatbots/characters/{id}',
  'DELETE /chatbots/training-data', 'DELETE /self/onboarding', 'DELETE /chatbots/conversations/{id}/messages',
]

/** One actor per role; the REGULAR one owns a ready character, a conversation with messages and a questionnaire. */
export async function fuzzActors(app: TestApp): Promise<Actor[]> {
  const regular = await app.signUp()
  const character = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie: regular.cookie,
    body: { userName: 'Fuzz', idealSelfDescription: 'Calm under pressure' },
  })
  const characterId = character.body.characterId ?? character.body.id
  for (let i = 0; i < 100; i++) {
    if ((await app.json('GET', `/chatbots/characters/${characterId}`, { cookie: regular.cookie })).body.isReady) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const conversationId = (await app.json('POST', '/chatbots/conversations', { cookie: regular.cookie, body: { name: 'fuzz', characterId } })).body.id
  const sent = await app.json('POST', `/chatbots/conversations/${conversationId}/character/${characterId}/chat?sse=false`, {
    cookie: regular.cookie,
    body: { text: 'Hello', currentDateTime: NOW_TEXT },
  })
  const questionnaireId = (await app.json('GET', `/chatbots/characters/${characterId}/questionnaire`, { cookie: regular.cookie })).body.id
  const dev = await app.makeUser({ role: 'DEVELOPER' })
  const admin = await app.makeUser({ role: 'ADMIN' })
  const shared = { slug: ['support', 'background-music', 'crisis-resources'], locale: ['ENUS', 'ZHTW'], stage: ['CONFIRM_RELATIONS'] }
  // Background jobs would change rows while a refused request is checked for changes.
  await app.ctx.jobs.stop()
  return [
    { role: 'ANONYMOUS', ids: shared },
    {
      role: 'REGULAR',
      cookie: regular.cookie,
      ids: {
        ...shared,
        id: [characterId, conversationId],
        characterId: [characterId],
        messageId: [sent.body.newChatbotMessage?.id, sent.body.newUserMessage?.id].filter(Boolean),
        questionnaireId: [questionnaireId],
      },
    },
    { role: 'DEVELOPER', cookie: await app.signIn(dev.email, dev.password), ids: { ...shared, id: [dev.id] } },
    { role: 'ADMIN', cookie: await app.signIn(admin.email, admin.password), ids: { ...shared, id: [admin.id, regular.user.id] } },
  ]
}
