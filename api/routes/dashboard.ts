import { Elysia } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { dashboardFigures } from '../admin/dashboard'

export const dashboardRoutes = (ctx: AppContext) =>
  new Elysia({ prefix: '/admin', tags: ['Admin'] })
    .use(authGuard(ctx))
    .get('/dashboard', () => dashboardFigures(ctx.sql, { timeZone: ctx.cfg.timeZone }), {
      // Spec §6 opens the dashboard page to the admin area's users; REGULAR users have no admin area.
      auth: ['ADMIN', 'DEVELOPER'],
      detail: { summary: 'Counts for the admin dashboard (users, sign-ups, activity, messages, events); no content' },
    })
