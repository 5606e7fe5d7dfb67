// The baselines of bench/api.ts: the same work as GET /api/v1/self (verify the session token, one session-and-user
// query, the same JSON) and as POST /api/v1/feedbacks/bot-response-message (the same checks and the same insert),
// with nothing else around it — on a bare Bun.serve, or with BASELINE=elysia on a bare Elysia app with one route each.
import postgres from 'postgres'
import { jwtVerify } from 'jose'
import { Elysia } from 'elysia'
import { toUser, type UserRow } from '../api/users/users'

const sql = postgres(process.env.DATABASE_URL!, { max: 10 })
const secret = new TextEncoder().encode(process.env.SESSION_SECRET!)

async function sessionUser(req: Request): Promise<UserRow | null> {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.get('cookie') ?? '')?.[1]
  if (!token) return null
  const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
  const [row] = await sql<UserRow[]>`
    select u.* from sessions s join users u on u.id = s.user_id
    where s.id = ${payload.sub!} and s.revoked_at is null and s.expires_at > now()`
  return row && !row.is_suspended ? row : null
}

async function self(req: Request) {
  const user = await sessionUser(req)
  return user ? Response.json(toUser(user, 'week')) : new Response('unauthorized', { status: 401 })
}

async function feedback(req: Request) {
  const user = await sessionUser(req)
  if (!user) return new Response('unauthorized', { status: 401 })
  const body = (await req.json()) as { messageId: string; feedbackText: string }
  const text = body.feedbackText.trim()
  const [row] = await sql<{ id: string; message_id: string; feedback_text: string; version: number; created_at: Date }[]>`
    insert into message_feedbacks (message_id, user_id, feedback_text, version)
    select id, ${user.id}, ${text}, version from messages where id = ${body.messageId} and user_id = ${user.id} and role = 'ASSISTANT'
    returning id, message_id, feedback_text, version, created_at`
  return Response.json({ id: row.id, messageId: row.message_id, feedbackText: row.feedback_text, version: row.version, createdAt: row.created_at.toISOString() })
}

const port = Number(process.env.PORT)
if (process.env.BASELINE === 'elysia') {
  new Elysia().get('/', ({ request }) => self(request)).post('/feedback', ({ request }) => feedback(request), { parse: 'none' }).listen({ port, hostname: '127.0.0.1' })
} else {
  Bun.serve({ port, hostname: '127.0.0.1', fetch: (req) => (new URL(req.url).pathname === '/feedback' ? feedback(req) : self(req)) })
}
console.log(`baseline (${process.env.BASELINE ?? 'bun'}) listening on ${port}`)
