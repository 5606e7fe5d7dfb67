import { Elysia } from 'elysia'
import type { AppContext } from '../context'
import pkg from '../../package.json'

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ tags: ['Health'] }).get(
    '/health',
    async ({ set }) => {
      const model = ctx.model.describe()
      try {
        const version = await Promise.race([
          ctx.db.version(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('database timeout')), 3000)),
        ])
        return { status: 'ok', version: pkg.version, database: { kind: ctx.db.kind, version }, model }
      } catch (e) {
        set.status = 503
        return {
          status: 'unavailable',
          version: pkg.version,
          database: { kind: ctx.db.kind, version: null, error: (e as Error).message },
          model,
        }
      }
    },
    { detail: { summary: 'Status, database kind and version, and the model provider' } },
  )
