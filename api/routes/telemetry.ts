import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { sessionToken, signedInUser } from '../http/guard'
import { analyticsSink } from '../telemetry/analytics'
import { errorReporter } from '../telemetry/errorReports'

export const telemetryRoutes = (ctx: AppContext) => {
  const sink = analyticsSink({ sql: ctx.sql, posthogKey: ctx.cfg.posthogKey, posthogHost: ctx.cfg.posthogHost })
  const report = errorReporter(ctx.cfg.errorReportingDsn)
  const optionalUser = async (request: Request) =>
    (await signedInUser(ctx, sessionToken(ctx, request)))?.user ?? null

  return new Elysia({ tags: ['Telemetry'] })
    .post(
      '/analytics/events',
      async ({ body, request }) => {
        const user = await optionalUser(request)
        await sink.record(body.event, body.props ?? {}, user?.id ?? null)
        return { ok: true }
      },
      {
        body: t.Object({
          event: t.String({ pattern: '^[A-Za-z0-9_ .:-]{1,64}$', error: 'event must be a short name' }),
          props: t.Optional(t.Record(t.String({ maxLength: 64 }), t.Union([t.String({ maxLength: 500 }), t.Number(), t.Boolean(), t.Null()]), { maxProperties: 20 })),
        }),
        detail: { summary: 'Record a product analytics event (signed in or not)' },
      },
    )
    .post(
      '/client-errors',
      async ({ body, request }) => {
        const user = await optionalUser(request)
        await report({ ...body, userEmail: user?.email ?? null, userId: user?.id ?? null })
        return { ok: true }
      },
      {
        body: t.Object({
          message: t.String({ maxLength: 4000 }),
          stack: t.Optional(t.String({ maxLength: 20000 })),
          url: t.Optional(t.String({ maxLength: 2000 })),
        }),
        detail: { summary: 'Report an uncaught render error from the browser' },
      },
    )
}
