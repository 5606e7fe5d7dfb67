// The baseline of bench/api.ts: a bare Bun.serve + postgres.js doing the same work as GET /api/v1/self
// (verify the session token, one session-and-user query, the same JSON), with nothing else around it.
import postgres from 'postgres'
import { jwtVerify } from 'jose'
import { toUser, type UserRow } from '../api/users/users'

const sql = postgres(process.env.DATABASE_URL!, { max: 10 })
const secret = new TextEncoder().encode(process.env.SESSION_SECRET!)

const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  async fetch(req) {
    const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.get('cookie') ?? '')?.[1]
    if (!token) return new Response('unauthorized', { status: 401 })
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const [row] = await sql<UserRow[]>`
      select u.* from sessions s join users u on u.id = s.user_id
      where s.id = ${payload.sub!} and s.revoked_at is null and s.expires_at > now()`
    if (!row || row.is_suspended) return new Response('unauthorized', { status: 401 })
    return Response.json(toUser(row, 'week'))
  },
})
console.log(`baseline listening on ${server.port}`)
