// The one authorization guard: a live session, a user who is not suspended, and the role a route needs.
import { Elysia } from 'elysia'
import type { AppContext } from '../context'
import { sessionIdFromToken, sessionUser } from '../auth/sessions'
import type { Role, UserRow } from '../users/users'
import { forbidden, unauthorized } from './errors'

/** One cookie of a Cookie header, read without building a cookie jar for the request. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) {
      const value = part.slice(i + 1).trim()
      if (!value.includes('%')) return value
      try {
        return decodeURIComponent(value)
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** The session token a request carries. */
export const sessionToken = (ctx: AppContext, request: Request) => readCookie(request.headers.get('cookie'), ctx.cookieName)

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
      async resolve({ request }) {
        const found = await signedInUser(ctx, sessionToken(ctx, request))
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
