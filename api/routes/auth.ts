import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { verifyIdToken } from '../auth/idToken'
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords'
import { createSession, revokeSession, sessionIdFromToken } from '../auth/sessions'
import { issueResetToken, resetTokenUser, consumeResetToken } from '../auth/resetTokens'
import { findUserByEmail, findUserById, insertUser, toUser, type UserRow } from '../users/users'
import { HttpError, badRequest, forbidden, tooMany, unauthorized } from '../http/errors'
import { credentialAttempt, credentialNotCounted, credentialSucceeded, oauthAccountAllowed, oauthSourceAllowed, resetMailAllowed, TOO_MANY_OAUTH_FROM_SOURCE } from '../auth/signInLimits'
import { isEmail } from '../http/validation'
import { notOwnLink, ownLink } from '../http/publicOrigin'

export const FORGOT_PASSWORD_MESSAGE =
  'Password reset requested — if the email is registered, you will receive a password reset link in your email'

// Verified against when the account does not exist, so both answers take the same time.
const DUMMY_HASH = await hashPassword('Dummy-password-1!')

export function sessionCookie(ctx: AppContext) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.cfg.production,
    path: '/',
  }
}

export const authRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx

  async function startSession(user: UserRow, request: Request, cookie: Record<string, any>) {
    const { token, expiresAt } = await createSession(sql, ctx.sessionKeys, user.id, {
      userAgent: request.headers.get('user-agent'),
      ip: ctx.clientAddress(request),
    })
    cookie[ctx.cookieName].set({ value: token, expires: expiresAt, ...sessionCookie(ctx) })
    await sql`update users set last_active_at = now() where id = ${user.id}`
    return { user: toUser(user, cfg.freeLimitPeriod) }
  }

  async function signOut(cookie: Record<string, any>, request: Request) {
    // The spec's sign-out is a GET, which a link on another site could trigger with the person's cookie
    // (SameSite=Lax lets top-level navigations through). Browsers say where a request comes from; only the
    // app itself (same-origin) or the person (typed, bookmarked: none) may sign them out.
    const site = request.headers.get('sec-fetch-site')
    if (site === 'cross-site' || site === 'same-site') throw forbidden('Sign-out from another site is refused')
    const sessionId = await sessionIdFromToken(ctx.sessionKeys, cookie[ctx.cookieName]?.value as string | undefined)
    if (sessionId) await revokeSession(sql, sessionId)
    cookie[ctx.cookieName].set({ value: '', maxAge: 0, ...sessionCookie(ctx) })
    return { ok: true }
  }

  function resetTokenOf(request: Request, query: { token?: string }, body?: { token?: string }) {
    const header = request.headers.get('authorization')
    const bearer = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined
    return body?.token || query.token || bearer || ''
  }

  return new Elysia({ prefix: '/auth', tags: ['Auth'] })
    .post(
      '/login/oauth',
      async ({ body, request, cookie }) => {
        if (!ctx.idTokenVerifier) throw new HttpError(503, 'ServiceUnavailable', 'Google sign-in is not configured')
        if (!(await oauthSourceAllowed(sql, ctx.clientAddress(request)))) throw tooMany(TOO_MANY_OAUTH_FROM_SOURCE)
        const claims = await verifyIdToken(ctx.idTokenVerifier, body.idToken)
        if (!(await oauthAccountAllowed(sql, claims.subject))) throw tooMany('Too many sign-ins to this account, please try again in a minute')
        const user = await sql.begin(async (tx) => {
          const [linked] = await tx<UserRow[]>`
            select u.* from user_identities i join users u on u.id = i.user_id
            where i.provider = 'google' and i.subject = ${claims.subject}`
          // Signing in with Google links the account again, whatever staff set since.
          if (linked) {
            if (linked.is_linked_to_oauth_account) return linked
            const [relinked] = await tx<UserRow[]>`
              update users set is_linked_to_oauth_account = true, updated_at = now() where id = ${linked.id} returning *`
            return relinked
          }
          let u = await findUserByEmail(tx, claims.email)
          if (u) {
            ;[u] = await tx<UserRow[]>`
              update users set is_linked_to_oauth_account = true, is_email_verified = true,
                oauth_profile_url = coalesce(oauth_profile_url, ${claims.picture}), updated_at = now()
              where id = ${u.id} returning *`
          } else {
            u = await insertUser(tx, {
              email: claims.email,
              name: claims.name,
              oauthProfileUrl: claims.picture,
              isEmailVerified: true,
              isLinkedToOAuthAccount: true,
              messageLimit: cfg.freeMessageLimit,
              period: cfg.freeLimitPeriod,
            })
          }
          await tx`insert into user_identities (provider, subject, user_id, email)
                   values ('google', ${claims.subject}, ${u.id}, ${claims.email}) on conflict do nothing`
          return u
        })
        if (user.is_suspended) throw unauthorized('Account is Suspended', 'AccountSuspended')
        return startSession(user, request, cookie)
      },
      {
        body: t.Object({
          idToken: t.String({ minLength: 1, maxLength: 8192 }),
          strategy: t.Literal('google'),
          isWeb: t.Optional(t.Boolean()),
        }),
        detail: { summary: 'Sign in with a Google ID token (or the development identity provider)' },
      },
    )
    .post(
      '/login/credential',
      async ({ body, request, cookie }) => {
        const email = body.username.trim().toLowerCase()
        const source = ctx.clientAddress(request)
        // Counted as a failure from here on, unless it succeeds.
        const refusal = await credentialAttempt(sql, email, source)
        if (refusal) throw tooMany(refusal)
        const user = await findUserByEmail(sql, email)
        // Spec §5/§8: an account linked to Google never signs in with a password, whatever password it has —
        // one set by staff included — so a password is never a way into someone's Google-linked account.
        if (user?.is_linked_to_oauth_account) {
          await credentialNotCounted(sql, email, source)
          throw unauthorized('This account signs in with Google', 'IsLinkedToOAuthAccount')
        }
        const ok = await verifyPassword(body.password, user?.password_hash ?? DUMMY_HASH)
        if (!user || !ok) throw unauthorized('Invalid username and/or password combination.', 'InvalidCredentials')
        if (user.is_suspended) {
          await credentialNotCounted(sql, email, source)
          throw unauthorized('Account is Suspended', 'AccountSuspended')
        }
        await credentialSucceeded(sql, email, source)
        return startSession(user, request, cookie)
      },
      {
        body: t.Object({
          username: t.String({ minLength: 1, maxLength: 320, error: 'username is required' }),
          password: t.String({ minLength: 1, maxLength: 256, error: 'password is required' }),
          isWeb: t.Optional(t.Boolean()),
        }),
        detail: { summary: 'Sign in with email and password' },
      },
    )
    .get('/sign-out', ({ cookie, request }) => signOut(cookie, request), {
      detail: { summary: 'Sign out and end the session on the server (refused when the browser marks the request cross-site)' },
    })
    .post('/sign-out', ({ cookie, request }) => signOut(cookie, request), {
      detail: { summary: 'Sign out and end the session on the server' },
    })
    .post(
      '/forgot-password',
      async ({ body, request }) => {
        const email = body.email.trim().toLowerCase()
        if (!isEmail(email)) throw badRequest('must be an valid email')
        // The link in the mail is always on PUBLIC_URL, whichever name of this machine the form was opened on.
        const redirect = ownLink(body.redirectUrl, cfg.publicUrl, { production: cfg.production, requestUrl: request.url })
        if (!redirect) throw badRequest(notOwnLink('redirectUrl', cfg.publicUrl))
        // At most a few mails per address and per source per window, so the form cannot flood an inbox; the
        // answer stays the same, so it tells nothing about the address either.
        if (await resetMailAllowed(sql, email, ctx.clientAddress(request))) {
          const user = await findUserByEmail(sql, email)
          if (user && !user.is_suspended) {
            const token = await issueResetToken(sql, user.id)
            redirect.searchParams.set('token', token)
            await ctx.sendMail({
              to: user.email,
              subject: 'Reset your Ideal Self password',
              text:
                `Hi ${user.name || 'there'},\n\nSomeone asked to reset the password of your Ideal Self account.\n` +
                `Open this link within one hour to choose a new password:\n\n${redirect}\n\n` +
                `If it was not you, ignore this mail; your password stays as it is.`,
            })
          }
        }
        return { message: FORGOT_PASSWORD_MESSAGE }
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 320, error: 'must be an valid email' }),
          redirectUrl: t.String({ minLength: 1, maxLength: 2000 }),
        }),
        detail: { summary: 'Mail a password-reset link (same answer whether or not the email exists)' },
      },
    )
    .get(
      '/verify-reset-password-token',
      async ({ query, request }) => {
        const userId = await resetTokenUser(sql, resetTokenOf(request, query))
        const user = userId ? await findUserById(sql, userId) : null
        if (!user) throw unauthorized('This password reset link is invalid or has expired', 'InvalidResetToken')
        return { valid: true, email: user.email }
      },
      {
        query: t.Object({ token: t.Optional(t.String({ maxLength: 200 })) }),
        detail: { summary: 'Check a reset token (query token or Authorization: Bearer)' },
      },
    )
    .post(
      '/reset-password',
      async ({ body, query, request }) => {
        const problem = passwordProblem(body.password)
        if (problem) throw badRequest(problem, 'WeakPassword')
        const userId = await consumeResetToken(sql, resetTokenOf(request, query, body), await hashPassword(body.password))
        if (!userId) throw unauthorized('This password reset link is invalid or has expired', 'InvalidResetToken')
        return { ok: true }
      },
      {
        body: t.Object({ password: t.String({ maxLength: 256 }), token: t.Optional(t.String({ maxLength: 200 })) }),
        query: t.Object({ token: t.Optional(t.String({ maxLength: 200 })) }),
        detail: { summary: 'Set a new password with a reset token' },
      },
    )
}

