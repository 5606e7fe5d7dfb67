import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard, sessionToken, signedInUser } from '../http/guard'
import { badRequest, notFound, unauthorized } from '../http/errors'
import { isUuid } from '../http/validation'
import { DEFINITIONS, LANGS, findDefinition, type ContentDefinition, type Lang } from '../content/definitions'
import {
  defaultValues,
  distinctKeys,
  localeProblem,
  mappingProblem,
  mappingsProblem,
  resolveRow,
  toContentRow,
  translationProblem,
  valuesProblem,
} from '../content/values'
import {
  contentRecordById,
  contentRecords,
  insertContentRecord,
  mergeContentTranslations,
  mergeContentValues,
} from '../content/store'
import { localeContentProblem, localeDoc, localeDocs, saveLocaleDocs, type LocaleContent } from '../content/localeDocs'
import { CHANNELS } from '../db/bus'

const lang = t.Union(
  LANGS.map((l) => t.Literal(l)),
  { error: 'locale must be ENUS, ZHTW or ZHCN' },
)
const fieldMap = t.Record(t.String(), t.Unknown())

// The definition as the editor sees it; its id is its slug, so every editor URL names the table it edits.
const definitionShape = ({ isPublic, ...def }: ContentDefinition) => ({ id: def.slug, ...def })

function definitionOf(slug: string): ContentDefinition {
  const def = findDefinition(slug)
  if (!def) throw notFound(`No editable content ${slug}`)
  return def
}

function check(problem: string | null) {
  if (problem) throw badRequest(problem)
}

/** The content notice of an edit to the site texts (other edits name their content's slug). */
export const LOCALES_CHANGED = 'locales'

const rowNotFound = () => notFound('Content row not found')

export const contentEditorRoutes = (ctx: AppContext) => {
  const { sql } = ctx
  const admin = ['ADMIN' as const]
  /** Every instance drops what it keeps of the changed texts (the site's locale cache) within moments. */
  const changed = (what: string) => ctx.bus.publish(CHANNELS.content, what)

  const editor = new Elysia({ prefix: '/content-editors', tags: ['Content editors'] })
    .use(authGuard(ctx))
    .get('/editable-contents', () => ({ editableContents: DEFINITIONS.map(definitionShape) }), {
      auth: admin,
      detail: { summary: 'Every editable content definition' },
    })
    .get(
      '/editable-contents/:id',
      async ({ params }) => {
        const def = definitionOf(params.id)
        const rows = (await contentRecords(sql, def.slug)).map((r) => toContentRow(def, r)).reverse()
        return { content: { ...definitionShape(def), contents: rows }, defaultValues: defaultValues(def) }
      },
      {
        auth: admin,
        params: t.Object({ id: t.String() }),
        detail: { summary: 'A definition (by slug) with its rows, newest first, and the new-row defaults' },
      },
    )
    .patch(
      '/editable-contents/:id/locale/:locale',
      async ({ params, body }) => {
        const current = isUuid(params.id) ? await contentRecordById(sql, params.id) : null
        if (!current) throw rowNotFound()
        const def = definitionOf(current.slug)
        check(translationProblem(def, body.translate))
        const row = await mergeContentTranslations(sql, current.id, params.locale, body.translate as Record<string, string>)
        if (!row) throw rowNotFound()
        await changed(current.slug)
        return toContentRow(def, row)
      },
      {
        auth: admin,
        params: t.Object({ id: t.String(), locale: lang }),
        body: t.Object({ translate: fieldMap }),
        detail: { summary: "Set translations of a row ({id} is the row id) in one language; other fields keep theirs" },
      },
    )
    .post(
      '/editable-contents/:id/contents',
      async ({ params, body, set }) => {
        const def = definitionOf(params.id)
        const mappings = body.mappings ?? {}
        const locale = body.locale ?? {}
        check(valuesProblem(def, body.values, 'create') ?? mappingsProblem(def, mappings) ?? localeProblem(def, locale))
        const keys = Object.fromEntries(Object.entries(mappings as Record<string, string[]>).map(([k, v]) => [k, distinctKeys(v)]))
        const row = await insertContentRecord(sql, {
          slug: def.slug,
          values: { ...defaultValues(def).mappings, ...keys, ...(body.values as Record<string, never>) },
          locale,
        })
        await changed(def.slug)
        set.status = 201
        return toContentRow(def, row!)
      },
      {
        auth: admin,
        params: t.Object({ id: t.String() }),
        body: t.Object({ values: fieldMap, mappings: t.Optional(fieldMap), locale: t.Optional(fieldMap) }),
        detail: { summary: 'Add a row: every field filled, optional mapped keys and translations' },
      },
    )
    .patch(
      '/editable-contents/:id/contents/:contentId',
      async ({ params, body }) => {
        const def = definitionOf(params.id)
        check(valuesProblem(def, body.values, 'update'))
        const row = isUuid(params.contentId)
          ? await mergeContentValues(sql, def.slug, params.contentId, body.values as Record<string, never>)
          : null
        if (!row) throw rowNotFound()
        await changed(def.slug)
        return toContentRow(def, row)
      },
      {
        auth: admin,
        params: t.Object({ id: t.String(), contentId: t.String() }),
        body: t.Object({ values: fieldMap }),
        detail: { summary: 'Change field values of a row; fields not sent keep theirs' },
      },
    )
    .put(
      '/editable-contents/:id/contents/:contentId/mappings/:mappingId',
      async ({ params, body }) => {
        const def = definitionOf(params.id)
        check(mappingProblem(def, params.mappingId, body))
        const row = isUuid(params.contentId)
          ? await mergeContentValues(sql, def.slug, params.contentId, { [params.mappingId]: distinctKeys(body) })
          : null
        if (!row) throw rowNotFound()
        await changed(def.slug)
        return toContentRow(def, row)
      },
      {
        auth: admin,
        params: t.Object({ id: t.String(), contentId: t.String(), mappingId: t.String() }),
        body: t.Array(t.String(), { maxItems: 200, error: 'body must be a list of keys' }),
        detail: { summary: 'Replace the keys of a mapping-many field ({mappingId} is its fieldName)' },
      },
    )
    .get('/locales', async () => ({ locales: await localeDocs(sql) }), {
      auth: admin,
      detail: { summary: 'The locale docs (site texts) of every language' },
    })
    .patch(
      '/locales',
      async ({ body }) => {
        const ids = body.locales.map((d) => d.id)
        if (new Set(ids).size !== ids.length) throw badRequest('Each locale may be sent once')
        for (const doc of body.locales) {
          const problem = localeContentProblem(doc.content)
          if (problem) throw badRequest(`${doc.id}: ${problem}`)
        }
        await saveLocaleDocs(sql, body.locales as { id: Lang; content: LocaleContent }[])
        await changed(LOCALES_CHANGED)
        return { locales: await localeDocs(sql) }
      },
      {
        auth: admin,
        body: t.Object({
          // content is checked by localeContentProblem: a schema Record would quietly turn [] into {}.
          locales: t.Array(t.Object({ id: lang, content: t.Unknown() }), { minItems: 1, maxItems: LANGS.length }),
        }),
        detail: { summary: 'Save the changed locale docs (all or none)' },
      },
    )

  // What the app reads: content in one language, and the site texts (both without a rebuild after an edit).
  const reads = new Elysia({ tags: ['Content'] })
    .get(
      '/content/:slug',
      async ({ params, query, request, set }) => {
        const def = definitionOf(params.slug)
        if (!def.isPublic && !(await signedInUser(ctx, sessionToken(ctx, request))))
          throw unauthorized()
        const locale: Lang = query.locale ?? 'ENUS'
        const rows = (await contentRecords(sql, def.slug)).map((r) => resolveRow(def, r, locale))
        set.headers['cache-control'] = `${def.isPublic ? 'public' : 'private'}, max-age=60`
        return { slug: def.slug, locale, rows }
      },
      {
        params: t.Object({ slug: t.String() }),
        query: t.Object({ locale: t.Optional(lang) }),
        detail: { summary: 'Rows of a content in one language (English where a text is missing)' },
      },
    )
    .get(
      '/locales/:id',
      async ({ params, set }) => {
        const doc = await localeDoc(sql, params.id)
        if (!doc) throw notFound(`No texts saved for ${params.id}`)
        set.headers['cache-control'] = 'public, max-age=60'
        return doc.content
      },
      { params: t.Object({ id: lang }), detail: { summary: 'The saved site texts of one language' } },
    )

  return new Elysia().use(editor).use(reads)
}
