// Composes the Elysia app from its controllers. Tests and both entry points import createApp.
import { Elysia, ValidationError } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { AppContext } from './context'
import { HttpError, type ErrorBody } from './http/errors'
import { authRoutes } from './routes/auth'
import { selfRoutes } from './routes/self'
import { fileRoutes } from './routes/files'
import { healthRoutes } from './routes/health'
import { devRoutes } from './routes/dev'
import { paymentRoutes } from './routes/payments'
import { telemetryRoutes } from './routes/telemetry'
import { contentEditorRoutes } from './routes/contentEditors'
import { userRoutes } from './routes/users'
import { dashboardRoutes } from './routes/dashboard'
import { conversationRoutes } from './routes/conversations'
import { feedbackRoutes } from './routes/feedbacks'
import { trainingDataRoutes } from './routes/trainingData'
import { characterRoutes } from './routes/characters'
import { chatHistoryRoutes } from './routes/chatHistory'
import { relationRoutes } from './routes/relations'
import { helpLineRoutes } from './routes/helpLines'
import { memoryRoutes } from './routes/memories'

function validationMessage(error: ValidationError): string {
  // A custom `error` text on a schema wins; otherwise name the field and what is wrong with it.
  const custom = typeof error.message === 'string' && !error.message.startsWith('{') ? error.message : null
  if (custom) return custom
  const first = error.all?.[0] as { path?: string; message?: string; schema?: { error?: string } } | undefined
  if (first?.schema?.error) return String(first.schema.error)
  const field = first?.path?.replace(/^\//, '').replace(/\//g, '.') || error.type
  return `${field}: ${first?.message ?? 'invalid value'}`
}

export function createApp(ctx: AppContext) {
  const sameOrigin = new URL(ctx.cfg.publicUrl).origin
  return new Elysia({ prefix: '/api/v1' })
    .onRequest(({ request }) => {
      // Cross-site writes never reach a handler with the user's cookie (checked beside SameSite=Lax).
      // Only requests carrying our session cookie matter: payment providers post back cross-site with
      // unrelated cookies and must get through.
      const origin = request.headers.get('origin')
      const withSession = request.headers.get('cookie')?.includes(`${ctx.cookieName}=`)
      if (origin && withSession && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
        if (origin !== sameOrigin && origin !== new URL(request.url).origin)
          return Response.json({ statusCode: 403, error: 'Forbidden', message: 'Cross-site request refused' }, { status: 403 })
      }
    })
    .error({ HttpError })
    .onError(({ code, error, set }) => {
      let body: ErrorBody
      if (error instanceof HttpError) body = error.toBody()
      else if (code === 'VALIDATION') body = { statusCode: 400, error: 'BadRequest', message: validationMessage(error as ValidationError) }
      else if (code === 'PARSE') body = { statusCode: 400, error: 'BadRequest', message: 'The request body could not be read' }
      else if (code === 'NOT_FOUND') body = { statusCode: 404, error: 'NotFound', message: 'route does not exist' }
      else {
        console.error(error)
        body = { statusCode: 500, error: 'InternalServerError', message: 'Unknown Server Error' }
      }
      set.status = body.statusCode
      set.headers['content-type'] = 'application/json; charset=utf-8'
      return body
    })
    .use(
      openapi({
        path: '/docs',
        documentation: {
          info: { title: 'Ideal Self API', version: '1', description: 'Every call of the Ideal Self app, under /api/v1.' },
        },
      }),
    )
    .use(healthRoutes(ctx))
    .use(authRoutes(ctx))
    .use(selfRoutes(ctx))
    .use(fileRoutes(ctx))
    .use(paymentRoutes(ctx))
    .use(telemetryRoutes(ctx))
    .use(contentEditorRoutes(ctx))
    .use(userRoutes(ctx))
    .use(dashboardRoutes(ctx))
    .use(conversationRoutes(ctx))
    .use(feedbackRoutes(ctx))
    .use(trainingDataRoutes(ctx))
    .use(characterRoutes(ctx))
    .use(chatHistoryRoutes(ctx))
    .use(relationRoutes(ctx))
    .use(helpLineRoutes(ctx))
    .use(memoryRoutes(ctx))
    .use(ctx.cfg.production ? new Elysia() : devRoutes(ctx, ctx.devIdp))
}

export type App = ReturnType<typeof createApp>
