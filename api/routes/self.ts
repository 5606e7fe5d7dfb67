import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { HttpError, badRequest, conflict, forbidden, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import { isEmail } from '../http/validation'
import { findExport, latestExport, requestExport, toDataExport } from '../self/dataExport'
import { toUser, type UserRow } from '../users/users'
import { deleteAccount } from '../self/account'
import { sessionCookie } from './auth'
import { ONBOARDING_STEPS } from '../onboarding/steps'
import { saveUpload } from '../files/uploads'

const isoDate = t.String({ format: 'date-time', error: 'must be an ISO date-time' })

export const selfRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx
  const shape = (row: UserRow) => toUser(row, cfg.freeLimitPeriod)
  const staff = ['ADMIN', 'DEVELOPER'] as const

  return new Elysia({ prefix: '/self', tags: ['Self'] })
    .use(authGuard(ctx))
    .get('', ({ user }) => shape(user), { auth: true, detail: { summary: 'The signed-in user (also the session check)' } })
    .patch(
      '/profile',
      async ({ user, body }) => {
        const name = body.name?.trim()
        if (body.name !== undefined && !name) throw badRequest('name is required')
        let email: string | undefined
        if (body.email !== undefined) {
          if (user.role !== 'ADMIN') throw forbidden('Only an ADMIN may change an email')
          email = body.email.trim().toLowerCase()
          if (!isEmail(email)) throw badRequest('must be a valid email')
          const [taken] = await sql`select 1 from users where email = ${email} and id <> ${user.id}`
          if (taken) throw conflict('This email is used by another account')
        }
        const country = body.crisisCountry === undefined ? user.crisis_country : body.crisisCountry
        const [row] = await sql<UserRow[]>`
          update users set name = coalesce(${name ?? null}, name), email = coalesce(${email ?? null}, email),
            crisis_country = ${country}, updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      {
        auth: true,
        body: t.Object({
          name: t.Optional(t.String({ maxLength: 100, error: 'name must be at most 100 characters' })),
          email: t.Optional(t.String({ maxLength: 320 })),
          crisisCountry: t.Optional(
            t.Nullable(t.String({ pattern: '^[A-Z]{2}$', error: 'crisisCountry must be a two-letter country code (ISO 3166) or null' })),
          ),
        }),
        detail: { summary: 'Change the name (and, for an ADMIN, the email), or the country help lines are chosen for (null: automatic)' },
      },
    )
    .delete(
      '',
      async ({ user, cookie }) => {
        if (user.role === 'ADMIN' || user.role === 'DEVELOPER')
          throw forbidden(`A ${user.role} account cannot delete itself`)
        await deleteAccount(sql, ctx.storage, cfg.ecpay, user.id)
        cookie[ctx.cookieName].set({ value: '', maxAge: 0, ...sessionCookie(ctx) })
        return { ok: true }
      },
      { auth: true, detail: { summary: 'Delete the account and everything it owns' } },
    )
    .post(
      '/data-exports',
      async ({ user, body, set }) => {
        const row = await requestExport(sql, user.id, body?.language ?? null)
        ctx.jobs.kick()
        set.status = 202
        return toDataExport(row)
      },
      {
        auth: true,
        body: t.Optional(t.Object({
          language: t.Optional(t.Union([t.Literal('en'), t.Literal('en-US'), t.Literal('zh-TW'), t.Literal('zh-CN')], {
            error: 'language must be one of en, en-US, zh-TW, zh-CN',
          })),
        })),
        detail: { summary: 'Build a ZIP of everything the account holds (202); while one is being built, that one is returned' },
      },
    )
    .get(
      '/data-exports/latest',
      async ({ user }) => {
        const row = await latestExport(sql, user.id)
        if (!row) throw notFound('No data export yet')
        return toDataExport(row)
      },
      { auth: true, detail: { summary: 'The newest data export: status, progress, and the download link while it is valid (24 h)' } },
    )
    .get(
      '/data-exports/:id/download',
      async ({ user, params }) => {
        const row = isUuid(params.id) ? await findExport(sql, user.id, params.id) : null
        if (!row) throw notFound('Data export not found')
        const view = toDataExport(row)
        if (view.expired || (row.status === 'READY' && !row.storage_key))
          throw new HttpError(410, 'Gone', 'This download link has expired; request a new archive')
        if (row.status !== 'READY') throw conflict('The archive is not ready yet')
        const blob = await ctx.storage.open(row.storage_key!)
        if (!blob) throw new HttpError(410, 'Gone', 'This download link has expired; request a new archive')
        const day = row.created_at.toISOString().slice(0, 10)
        return new Response(blob, {
          headers: {
            'content-type': 'application/zip',
            'content-disposition': `attachment; filename="ideal-self-data-${day}.zip"`,
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
          },
        })
      },
      { auth: true, params: t.Object({ id: t.String() }), detail: { summary: "The data export's ZIP, to its owner only, for 24 hours" } },
    )
    .patch(
      '/subscription',
      async ({ user, body }) => {
        const [row] = await sql<UserRow[]>`
          update users set
            subscription_type = ${body.type ?? user.subscription_type},
            subscription_auto_renew = ${body.autoRenew ?? user.subscription_auto_renew},
            subscription_expires_at = ${body.expiresAt === undefined ? user.subscription_expires_at : body.expiresAt === null ? null : new Date(body.expiresAt)},
            subscription_provider = ${body.provider === undefined ? user.subscription_provider : body.provider},
            updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      {
        auth: [...staff],
        body: t.Object({
          type: t.Optional(t.Union([t.Literal('FREEMIUM'), t.Literal('PREMIUM')])),
          autoRenew: t.Optional(t.Boolean()),
          expiresAt: t.Optional(t.Nullable(isoDate)),
          provider: t.Optional(t.Nullable(t.Union([t.Literal('APPLE'), t.Literal('STRIPE'), t.Literal('ECPAY')]))),
        }),
        detail: { summary: 'Developer tool: edit the own subscription (changed fields only)' },
      },
    )
    .patch(
      '/message-limit',
      async ({ user, body }) => {
        const current = toUser(user, cfg.freeLimitPeriod).messageLimit
        const [row] = await sql<UserRow[]>`
          update users set
            message_limit = ${body.limit ?? current.limit},
            message_count = ${body.count ?? current.count},
            message_reset_at = ${body.resetAt ? new Date(body.resetAt) : new Date(current.resetAt)},
            updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      {
        auth: [...staff],
        body: t.Object({
          limit: t.Optional(t.Integer({ minimum: 0, maximum: 1000, error: 'limit must be an integer from 0 to 1000' })),
          count: t.Optional(t.Integer({ minimum: 0, maximum: 1000, error: 'count must be an integer from 0 to 1000' })),
          resetAt: t.Optional(isoDate),
        }),
        detail: { summary: 'Developer tool: edit the own message allowance (changed fields only)' },
      },
    )
    .post(
      '/file',
      async ({ user, body }) => saveUpload(ctx, user.id, body.file),
      {
        auth: true,
        body: t.Object({ file: t.File({ error: 'file is required' }) }),
        detail: { summary: 'Upload an image (PNG, JPEG, GIF or WebP); returns id and url' },
      },
    )
    .patch(
      '/onboarding',
      async ({ user, body }) => {
        const [row] = await sql<UserRow[]>`
          update users set
            onboarding_current_step = ${body.currentStep === undefined ? user.onboarding_current_step : body.currentStep},
            onboarding_completed = ${body.isCompleted ?? user.onboarding_completed},
            updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      {
        auth: true,
        body: t.Object({
          isCompleted: t.Optional(t.Boolean()),
          currentStep: t.Optional(t.Nullable(t.Union(ONBOARDING_STEPS.map((s) => t.Literal(s)), { error: 'currentStep must be an onboarding step' }))),
        }),
        detail: { summary: 'Save the onboarding step or mark onboarding complete' },
      },
    )
    .delete(
      '/onboarding',
      async ({ user }) => {
        const [row] = await sql<UserRow[]>`
          update users set onboarding_current_step = null, onboarding_completed = false, updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      { auth: true, detail: { summary: 'Reset the onboarding progress' } },
    )
    .put(
      '/geo-location',
      async ({ user, body }) => {
        const [row] = await sql<UserRow[]>`
          update users set geo_latitude = ${body.latitude}, geo_longitude = ${body.longitude}, geo_updated_at = now()
          where id = ${user.id} returning *`
        return shape(row)
      },
      {
        auth: true,
        body: t.Object({
          latitude: t.Number({ minimum: -90, maximum: 90, error: 'latitude must be between -90 and 90' }),
          longitude: t.Number({ minimum: -180, maximum: 180, error: 'longitude must be between -180 and 180' }),
        }),
        detail: { summary: 'Store the browser location' },
      },
    )
}
