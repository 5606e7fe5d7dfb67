import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import { rebuildCharacterPrompt } from '../characters/characterPrompt'
import { promptRelations, readGraph, relationsReadiness } from '../relations/graph'
import { saveGraphEdit } from '../relations/editGraph'
import { latestImport } from '../chat-import/analysis/imports'

const node = t.Object({ id: t.String({ error: 'each node needs an id' }) })
const relationship = t.Object({
  id: t.Optional(t.String()),
  source: t.String({ error: 'each relationship needs a source' }),
  target: t.String({ error: 'each relationship needs a target' }),
  types: t.Array(t.String(), { error: 'types must be a list of relationship types' }),
  properties: t.Object({ closeness: t.Number({ error: 'closeness must be a whole number from 1 to 5' }) }, { error: 'properties.closeness is required' }),
})
const graph = { nodes: t.Optional(t.Array(node)), relationships: t.Optional(t.Array(relationship)) }

export const relationRoutes = (ctx: AppContext) => {
  const { sql } = ctx

  function characterId(id: string): string {
    if (!isUuid(id)) throw notFound('Character not found')
    return id
  }

  return new Elysia({ prefix: '/chatbots/characters', tags: ['Relations'] })
    .use(authGuard(ctx))
    .get(
      '/:id/relations',
      async ({ user, params }) => {
        const id = characterId(params.id)
        const readiness = await relationsReadiness(sql, user.id, id)
        if (!readiness) throw notFound('Character not found')
        const [data, last] = await Promise.all([readGraph(sql, id), latestImport(sql, user.id, id)])
        return { isReady: readiness.isReady, data, import: last && { id: last.id, status: last.status, error: last.error } }
      },
      {
        auth: true,
        detail: {
          summary:
            'The relationship graph: {isReady, data: {nodes: [{id, properties: {name, isSelf}}], relationships: [{id, source, target, types, properties: {closeness, confirmed}}]}, import: {id, status, error} | null}',
          description:
            "The user is the node with isSelf (named after the author name they picked); every relationship goes from that node to one person. isReady is false (and the graph empty) before any chat history was imported, and false while an import is analysed; import is the latest import's state, so a FAILED analysis can be told apart from one still running.",
        },
      },
    )
    .patch(
      '/:id/relations',
      async ({ user, params, body }) => {
        const id = characterId(params.id)
        const edit = body.data ?? body
        if (!edit.relationships) throw badRequest('relationships is required')
        const saved = await saveGraphEdit(sql, user.id, id, { nodes: edit.nodes, relationships: edit.relationships })
        if (!saved) throw notFound('Character not found')
        await rebuildCharacterPrompt(sql, id, { relations: promptRelations(saved) })
        return { isReady: true, data: saved }
      },
      {
        auth: true,
        body: t.Object({ ...graph, data: t.Optional(t.Object(graph)) }),
        detail: {
          summary: 'Save the graph from the relationship editor ({nodes, relationships} or {data: {nodes, relationships}}); returns {isReady, data}',
          description:
            'Replaces the graph at once: people without a relationship are removed, the others get the types and closeness sent, and the character prompt is rebuilt with them. 400 for an unknown node or relationship id, an unknown type, no type or the same type twice, closeness other than a whole number 1 to 5, or no relation left; 409 while an import is still being analysed.',
        },
      },
    )
}
