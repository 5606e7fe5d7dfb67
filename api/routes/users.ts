import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, conflict, forbidden, notFound } from '../http/errors'
import { isEmail, isUuid } from '../http/validation'
import { passwordProblem } from '../auth/passwords'
import { ROLES, findUserById, toUser, type UserRow } from '../users/users'
import { DELETED_ACCOUNT, deleteAccount } from '../self/account'
import { auditActionOf, auditEntries, recordAudit } from '../admin/auditLog'
import { accountChangeMail } from '../admin/accountMail'
import { USER_SORTS, adminRefusal, changeUser, emailTaken, listUsers, type UserAction, type UserChange } from '../admin/users'

const CHANGES = ['role', 'isLinkedToOAuthAccount', 'isSuspended', 'isEmailVerified', 'password', 'email'] as const

export const userRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx
  const shape = (row: UserRow) => toUser(row, cfg.freeLimitPeriod)
  const admin = ['ADMIN' as const]

  async function targetUser(id: string) {
    const target = isUuid(id) ? await findUserById(sql, id) : null
    if (!target) throw notFound('User not found')
    return target
  }

  return new Elysia({ prefix: '/users', tags: ['Users (admin)'] })
    .use(authGuard(ctx))
    .get(
      '',
      async ({ query }) => {
        const page = query.page ?? 1
        const pageSize = query.pageSize ?? 20
        const { rows, total } = await listUsers(sql, {
          page,
          pageSize,
          sort: query.sort ?? 'createdAt',
          order: query.order ?? 'desc',
          q: query.q?.trim() || null,
          role: query.role ?? null,
        })
        return { users: rows.map(shape), total, page, pageSize }
      },
      {
        auth: admin,
        query: t.Object({
          page: t.Optional(t.Integer({ minimum: 1, error: 'page must be a whole number from 1' })),
          pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'pageSize must be a whole number from 1 to 100' })),
          sort: t.Optional(t.Union(USER_SORTS.map((s) => t.Literal(s)), { error: `sort must be one of ${USER_SORTS.join(', ')}` })),
          order: t.Optional(t.Union([t.Literal('asc'), t.Literal('desc')], { error: 'order must be asc or desc' })),
          q: t.Optional(t.String({ maxLength: 200 })),
          role: t.Optional(t.Union(ROLES.map((r) => t.Literal(r)), { error: `role must be one of ${ROLES.join(', ')}` })),
        }),
        detail: { summary: 'Users, a page at a time: sorted, searched by name or email, filtered by role' },
      },
    )
    .get(
      '/audit-log',
      async ({ query }) => {
        const limit = query.limit ?? 50
        const offset = query.offset ?? 0
        return { ...(await auditEntries(sql, { limit, offset })), limit, offset }
      },
      {
        auth: admin,
        query: t.Object({
          limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, error: 'limit must be a whole number from 1 to 200' })),
          offset: t.Optional(t.Integer({ minimum: 0, error: 'offset must be a whole number from 0' })),
        }),
        detail: { summary: 'What staff changed on accounts, newest first: who, what, when (never message content)' },
      },
    )
    .patch(
      '/:id',
      async ({ user, sessionId, params, body }) => {
        const sent = CHANGES.filter((k) => body[k] !== undefined)
        if (sent.length !== 1) throw badRequest(`Send exactly one of ${CHANGES.join(', ')}`)
        const action: UserAction = sent[0]
        let change = { [action]: body[action] } as UserChange
        const target = await targetUser(params.id)
        const refused = adminRefusal(user.id, target, action, change)
        if (refused) throw forbidden(refused)
        if ('password' in change) {
          const problem = passwordProblem(change.password)
          if (problem) throw badRequest(problem, 'WeakPassword')
        }
        if ('email' in change) {
          const email = change.email.trim().toLowerCase()
          if (!isEmail(email)) throw badRequest('not a valid email')
          if (await emailTaken(sql, email, target.id)) throw conflict('This email is used by another account')
          change = { email }
        }
        const changed = await changeUser(sql, target, change, { id: user.id, email: user.email, sessionId })
        const mail = accountChangeMail(auditActionOf(change), target, { newEmail: changed.email })
        // The change stands even if the mail server is down; the audit log still shows it.
        if (mail) await ctx.sendMail(mail).catch((e) => console.error('Account-change mail failed:', e))
        return shape(changed)
      },
      {
        auth: admin,
        params: t.Object({ id: t.String() }),
        body: t.Object({
          role: t.Optional(t.Union([t.Literal('REGULAR'), t.Literal('DEVELOPER')], { error: 'role must be REGULAR or DEVELOPER' })),
          isLinkedToOAuthAccount: t.Optional(t.Boolean()),
          isSuspended: t.Optional(t.Boolean()),
          isEmailVerified: t.Optional(t.Boolean()),
          password: t.Optional(t.String({ maxLength: 256 })),
          email: t.Optional(t.String({ maxLength: 320, error: 'not a valid email' })),
        }),
        detail: { summary: 'Change one thing about a user (ADMIN accounts cannot be suspended or re-roled)' },
      },
    )
    .delete(
      '/:id',
      async ({ user, params }) => {
        const target = await targetUser(params.id)
        const refused = adminRefusal(user.id, target, 'delete')
        if (refused) throw forbidden(refused)
        await deleteAccount(sql, ctx.storage, ctx.cfg.ecpay, target.id)
        // The log keeps that an account was deleted and by whom, not whose it was.
        await recordAudit(sql, user, { id: null, email: DELETED_ACCOUNT }, 'deleted')
        return { ok: true }
      },
      {
        auth: admin,
        params: t.Object({ id: t.String() }),
        detail: { summary: 'Delete a user with everything they own (never an ADMIN, never yourself)' },
      },
    )
}
