import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { notFound } from '../http/errors'
import { isUuid } from '../http/validation'

export const fileRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: '/files', tags: ['Files'] })
    .use(authGuard(ctx))
    .get(
      '/:id',
      async ({ user, params }) => {
        if (!isUuid(params.id)) throw notFound('File not found')
        const [file] = await ctx.sql<{ storage_key: string; mime_type: string }[]>`
          select storage_key, mime_type from files where id = ${params.id} and user_id = ${user.id}`
        const data = file && (await ctx.storage.get(file.storage_key))
        if (!data) throw notFound('File not found')
        return new Response(data, {
          headers: {
            'content-type': file.mime_type,
            'x-content-type-options': 'nosniff',
            'cache-control': 'private, max-age=86400',
            'content-security-policy': "default-src 'none'",
          },
        })
      },
      { auth: true, params: t.Object({ id: t.String() }), detail: { summary: 'An uploaded image, to its owner only' } },
    )
