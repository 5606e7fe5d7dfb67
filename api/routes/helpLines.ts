import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { helpLines } from '../chat/safety/helpLines'
import type { Language } from '../llm/language'

const LANGUAGES: Record<string, Language> = { ENUS: 'en-US', ZHTW: 'zh-TW', ZHCN: 'zh-CN' }

export const helpLineRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: '/help-lines', tags: ['Safety'] })
    .use(authGuard(ctx))
    .get(
      '',
      async ({ user, query }) => {
        const language = LANGUAGES[query.language ?? 'ENUS']
        const [row] = await ctx.sql<{ crisis_country: string | null }[]>`select crisis_country from users where id = ${user.id}`
        return helpLines(ctx.sql, { country: row?.crisis_country, timeZone: query.timeZone, language }, language)
      },
      {
        auth: true,
        query: t.Object({
          // Any string: an unknown zone only means the lines are chosen another way.
          timeZone: t.Optional(t.String({ description: "The browser's IANA time zone" })),
          language: t.Optional(t.Union([t.Literal('ENUS'), t.Literal('ZHTW'), t.Literal('ZHCN')], { error: 'language must be ENUS, ZHTW or ZHCN' })),
        }),
        detail: {
          summary:
            "The caller's local crisis lines in a language: by their country setting, else their time zone's country, else the language; INTL where a country has no lines of its own",
        },
      },
    )
