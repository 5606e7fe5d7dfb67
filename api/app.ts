// Composes the Elysia app from its controllers. Tests and both entry points import createApp.
import { Elysia, ValidationError } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { AppContext } from './context'
import { HttpError, type ErrorBody } from './http/errors'
import { bodyLimit, limitBody } from './http/bodyLimit'
import { cleanInput } from './http/inputText'
import { clientIp, recordClientIp } from './http/guard'
import { securityHeaders } from './http/securityHeaders'
import { isConnectionError } from './db/connectionErrors'
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

// Reads that are answered again when the database connection dropped under them. A GET that writes (the
// greeting, a payment order) is not repeated: the first try may have written before the connection went.
const repeatable = (request: Request) =>
  (request.method === 'GET' || request.method === 'HEAD') && !/\/hello$|^\/api\/v1\/payments\//.test(new URL(request.url).pathname)

export function createApp(ctx: AppContext) {
  const sameOrigin = new URL(ctx.cfg.publicUrl).origin
  const headers = securityHeaders(ctx.cfg).other
  const retried = new WeakSet<Request>()
  // TypeBox's cleaning, not Elysia's default: the default copies a string given for an object-of-anything field
  // into an object with one key per character before validating (seconds of CPU for a megabyte string).
  const app = new Elysia({ prefix: '/api/v1', normalize: 'typebox' })
    .onRequest((context) => {
      const { request } = context
      const url = new URL(request.url)
      // The OpenAPI page is the one HTML page the API serves; it loads its viewer from a CDN.
      if (!url.pathname.startsWith('/api/v1/docs')) Object.assign(context.set.headers, headers)
      // Cross-site writes never reach a handler with the user's cookie (checked beside SameSite=Lax).
      // Only requests carrying our session cookie matter: payment providers post back cross-site with
      // unrelated cookies and must get through.
      const origin = request.headers.get('origin')
      const withSession = request.headers.get('cookie')?.includes(`${ctx.cookieName}=`)
      if (origin && withSession && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
        if (origin !== sameOrigin && origin !== url.origin)
          return Response.json({ statusCode: 403, error: 'Forbidden', message: 'Cross-site request refused' }, { status: 403 })
      }
      // Handlers and Elysia's parsers read context.request, so the size-limited body is the only one they see.
      const limited = limitBody(request, bodyLimit(url.pathname, ctx.cfg))
      if (limited !== request) {
        recordClientIp(limited, clientIp(request))
        context.request = limited
      }
    })
    // Runs after parsing and before validation, for every route: one rule for what text the product accepts.
    .onTransform((context) => {
      if (context.body !== undefined) context.body = cleanInput(context.body)
      if (context.query) cleanInput(context.query, 'query')
      if (context.params) cleanInput(context.params, 'params')
    })
    .error({ HttpError })
    .onError(async ({ code, error, set, request }) => {
      if (isConnectionError(error)) {
        // postgres.js opens a fresh connection for the next query, so one more try usually succeeds.
        if (repeatable(request) && !retried.has(request)) {
          retried.add(request)
          const again = await app.handle(request)
          // Elysia would answer with the status of the failed try otherwise.
          set.status = again.status
          return again
        }
        set.status = 503
        set.headers['retry-after'] = '1'
        set.headers['content-type'] = 'application/json; charset=utf-8'
        return { statusCode: 503, error: 'ServiceUnavailable', message: 'Server Busy, Please try again later' }
      }
      let body: ErrorBody
      // A body cut off at its size limit surfaces as a parse error carrying the 413.
      const cause = code === 'PARSE' ? (error as Error).cause : undefined
      if (error instanceof HttpError) body = error.toBody()
      else if (cause instanceof HttpError) body = cause.toBody()
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
  return app
}

export type App = ReturnType<typeof createApp>
