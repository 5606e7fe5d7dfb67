import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, notFound } from '../http/errors'
import { saveFeedback } from '../chat/feedback'

export const feedbackRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: '/feedbacks', tags: ['Feedback'] })
    .use(authGuard(ctx))
    .post(
      '/bot-response-message',
      async ({ user, body }) => {
        const text = body.feedbackText.trim()
        if (!text || text.length > 2000) throw badRequest('feedbackText must be 1 to 2000 characters')
        const feedback = await saveFeedback(ctx.sql, user.id, body.messageId, text, body.version)
        if (!feedback) throw notFound('Message not found')
        return feedback
      },
      {
        auth: true,
        body: t.Object({
          messageId: t.String(),
          feedbackText: t.String({ error: 'feedbackText must be 1 to 2000 characters' }),
          version: t.Optional(t.Integer({ minimum: 1, error: 'version must be a whole number from 1' })),
        }),
        detail: { summary: "Feedback on one of the caller's bot replies: the version given, else the one shown now" },
      },
    )
