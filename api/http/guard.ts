// The one authorization guard: a live session, a user who is not suspended, and the role a route needs.
import { Elysia } from 'elysia'
import type { AppContext } from '../context'
import { sessionIdFromToken, sessionUser } from '../auth/sessions'
import type { Role, UserRow } from '../users/users'
import { forbidden, unauthorized } from './errors'

export async function signedInUser(ctx: AppContext, token: string | undefined): Promise<{ user: UserRow; sessionId: string } | null> {
  const sessionId = await sessionIdFromToken(ctx.sessionKeys, token)
  if (!sessionId) return null
  const user = await sessionUser(ctx.sql, sessionId)
  if (!user || user.is_suspended) return null
  return { user, sessionId }
}

export const authGuard = (ctx: AppContext) =>
  new Elysia({ name: 'auth-guard' }).macro({
    auth: (roles: true | Role[]) => ({
      async resolve({ cookie }) {
        const found = await signedInUser(ctx, cookie[ctx.cookieName]?.value as string | undefined)
        if (!found) throw unauthorized()
        if (roles !== true && !roles.includes(found.user.role)) throw forbidden()
        return { user: found.user, sessionId: found.sessionId }
      },
    }),
  })

// The address of the socket a request came in on, recorded by the server that accepted it (never a header
// the caller could set).
const socketAddresses = new WeakMap<Request, string>()
export const recordClientIp = (request: Request, address: string) => socketAddresses.set(request, address)
export const clientIp = (request: Request) => socketAddresses.get(request) ?? 'unknown'
