import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import type { DevIdentityProvider } from '../auth/devIdentityProvider'
import { badRequest } from '../http/errors'
import { isEmail } from '../http/validation'

/** Development conveniences; app.ts never mounts these in production. */
export const devRoutes = (ctx: AppContext, idp: DevIdentityProvider | null) =>
  new Elysia({ tags: ['Development'] })
    .get('/dev/outbox', async () => {
      const mails = await ctx.sql`
        select id, to_address as "to", subject, body_text as text, created_at as "createdAt"
        from mail_outbox order by id desc limit 50`
      return { mails }
    }, { detail: { summary: 'Mail written to the development outbox (no SMTP configured)' } })
    .use((app) =>
      !idp
        ? app
        : app
            .get('/auth/dev/jwks', () => idp.jwks, { detail: { summary: 'Key set of the development identity provider' } })
            .post(
              '/auth/dev/token',
              async ({ body }) => {
                const email = body.email.trim().toLowerCase()
                if (!isEmail(email)) throw badRequest('must be a valid email')
                return { idToken: await idp.mint({ email, name: body.name.trim() || email.split('@')[0] }) }
              },
              {
                body: t.Object({ email: t.String({ maxLength: 320 }), name: t.String({ maxLength: 100 }) }),
                detail: { summary: 'Development identity provider: an ID token for any email' },
              },
            ),
    )
