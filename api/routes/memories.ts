import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import {
  MEMORY_KINDS,
  MEMORY_LABEL_MAX,
  MEMORY_TEXT_MAX,
  createMemory,
  deleteMemory,
  forgetAll,
  getMemory,
  listMemories,
  toMemoryView,
  updateMemory,
} from '../memory/memories'
import { embedMemories } from '../memory/embeddings'

const kind = t.Union(
  MEMORY_KINDS.map((k) => t.Literal(k)),
  { error: `kind must be one of ${MEMORY_KINDS.join(', ')}` },
)
const text = t.String({ minLength: 1, maxLength: MEMORY_TEXT_MAX, error: `text must be 1 to ${MEMORY_TEXT_MAX} characters` })
const label = t.String({ maxLength: MEMORY_LABEL_MAX, error: `label must be at most ${MEMORY_LABEL_MAX} characters` })
const personName = t.Union([t.String({ maxLength: 80 }), t.Null()], { error: 'personName must be a name of at most 80 characters, or null' })

/** Trimmed and non-empty, or a 400 naming the field. */
function required(field: string, value: string): string {
  const trimmed = value.trim()
  if (!trimmed) throw badRequest(`${field} must not be blank`)
  return trimmed
}

export const memoryRoutes = (ctx: AppContext) => {
  const { sql } = ctx
  // A memory written by hand gets its vector in the background; until then (or without one) text search finds it.
  const embedLater = <T extends { id: string }>(userId: string, row: T): T => {
    const embed = ctx.model.provider.embed
    if (embed) embedMemories(sql, embed, userId, [row.id]).catch((error) => console.error('Embedding a memory failed', error))
    return row
  }
  async function own(userId: string, id: string) {
    const row = isUuid(id) ? await getMemory(sql, userId, id) : null
    if (!row) throw notFound('Memory not found')
    return row
  }

  return new Elysia({ prefix: '/memories', tags: ['Memories'] })
    .use(authGuard(ctx))
    .get(
      '',
      async ({ user, query }) => {
        const memories = (await listMemories(sql, user.id, query.search)).map(toMemoryView)
        return { memories, total: memories.length }
      },
      {
        auth: true,
        query: t.Object({ search: t.Optional(t.String({ maxLength: 200, error: 'search must be at most 200 characters' })) }),
        detail: { summary: 'What the companion remembers about the caller, newest first; search matches text, label, person and kind' },
      },
    )
    .get(
      '/export',
      async ({ user, set }) => {
        const memories = (await listMemories(sql, user.id)).map(toMemoryView)
        set.headers['content-disposition'] = 'attachment; filename="ideal-self-memories.json"'
        return { exportedAt: new Date().toISOString(), memories }
      },
      { auth: true, detail: { summary: "Every memory of the caller as a JSON file (part of the account's data)" } },
    )
    .post(
      '',
      async ({ user, body }) =>
        toMemoryView(
          embedLater(
            user.id,
            await createMemory(sql, user.id, { kind: body.kind, text: required('text', body.text), label: body.label, personName: body.personName }),
          ),
        ),
      {
        auth: true,
        body: t.Object({ kind, text, label: t.Optional(label), personName: t.Optional(personName) }),
        detail: { summary: 'Add a memory by hand' },
      },
    )
    .get('/:id', async ({ user, params }) => toMemoryView(await own(user.id, params.id)), {
      auth: true,
      detail: { summary: 'One memory of the caller (opened from a chip under a reply)' },
    })
    .patch(
      '/:id',
      async ({ user, params, body }) => {
        await own(user.id, params.id)
        if (body.text === undefined && body.kind === undefined && body.label === undefined && body.personName === undefined)
          throw badRequest('Nothing to change: give text, kind, label or personName')
        const row = await updateMemory(sql, user.id, params.id, {
          ...(body.text !== undefined ? { text: required('text', body.text) } : {}),
          ...(body.kind !== undefined ? { kind: body.kind } : {}),
          ...(body.label !== undefined ? { label: required('label', body.label) } : {}),
          ...(body.personName !== undefined ? { personName: body.personName } : {}),
        })
        if (!row) throw notFound('Memory not found')
        return toMemoryView(embedLater(user.id, row))
      },
      {
        auth: true,
        body: t.Object({ text: t.Optional(text), kind: t.Optional(kind), label: t.Optional(label), personName: t.Optional(personName) }),
        detail: { summary: 'Correct a memory: its text, kind, chip label or the person it is about' },
      },
    )
    .delete(
      '/:id',
      async ({ user, params }) => {
        if (!isUuid(params.id) || !(await deleteMemory(sql, user.id, params.id))) throw notFound('Memory not found')
        return { deleted: true }
      },
      { auth: true, detail: { summary: 'Forget one memory; no later prompt includes it' } },
    )
    .delete('', async ({ user }) => ({ deletedCount: await forgetAll(sql, user.id) }), {
      auth: true,
      detail: { summary: 'Forget everything the companion remembers about the caller' },
    })
}
