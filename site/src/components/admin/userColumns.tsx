// The columns of the admin users table: the fields, the role chip, the account switches and the row actions.
// Cells call the table's latest handlers through a ref, so the columns are made once.
import type { MutableRefObject } from 'react'
import {
  columnFilteringFeature,
  createColumnHelper,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
} from '@tanstack/react-table'
import { IconButton } from './IconButton'
import { Toggle } from './Toggle'
import { DATE_FORMATS, formatInZone } from '../../lib/dates'
import type { Translate } from '../../lib/translate'
import type { User } from '../../../../api/users/users'

type Flag = 'isSuspended' | 'isEmailVerified' | 'isLinkedToOAuthAccount'
export type Editing = { kind: 'email' | 'password' | 'delete'; user: User } | null

export const features = tableFeatures({ rowSortingFeature, columnFilteringFeature, globalFilteringFeature, rowPaginationFeature })
const helper = createColumnHelper<typeof features, User>()

export interface CellHandlers {
  change: (user: User, body: Record<string, unknown>, purpose: string) => Promise<void>
  busy: (id: string, field: string) => boolean
  setEditing: (editing: Editing) => void
}

export function userColumns({ t, timeZone, selfId, handlers }: { t: Translate; timeZone: string; selfId: string; handlers: MutableRefObject<CellHandlers> }) {
  const flagPurpose: Record<Flag, string> = {
    isSuspended: t('admin.users.suspendPurpose'),
    isEmailVerified: t('admin.users.verifyPurpose'),
    isLinkedToOAuthAccount: t('admin.users.oauthPurpose'),
  }
  const flagColumn = (flag: Flag, label: string) =>
    helper.accessor(flag, {
      header: label,
      enableSorting: false,
      cell: ({ row }) => {
        const user = row.original
        // The server never suspends an ADMIN account (spec §6).
        const refused = flag === 'isSuspended' && user.role === 'ADMIN' && !user.isSuspended
        return (
          <span className="switch-cell">
            <Toggle
              checked={user[flag]}
              disabled={refused || handlers.current.busy(user.id, flag)}
              label={`${label}: ${user.email}`}
              onChange={(on) => void handlers.current.change(user, { [flag]: on }, flagPurpose[flag])}
            />
          </span>
        )
      },
    })
  return helper.columns([
    helper.accessor('name', { header: t('admin.users.name'), cell: ({ getValue }) => getValue() || <span className="muted">—</span> }),
    helper.accessor('email', { header: t('admin.users.email') }),
    helper.accessor('role', {
      header: t('admin.users.role'),
      cell: ({ row }) => {
        const user = row.original
        if (user.role !== 'REGULAR' && user.role !== 'DEVELOPER') return <span className={`admin-chip role-${user.role}`}>{user.role}</span>
        const next = user.role === 'REGULAR' ? 'DEVELOPER' : 'REGULAR'
        return (
          <button
            type="button"
            className={`admin-chip role-${user.role}`}
            disabled={handlers.current.busy(user.id, 'role')}
            aria-label={t('admin.users.toggleRole', { email: user.email, role: user.role, next })}
            title={t('admin.users.toggleRoleHint', { next })}
            onClick={() => void handlers.current.change(user, { role: next }, t('admin.users.rolePurpose'))}
          >
            {user.role}
          </button>
        )
      },
    }),
    helper.accessor((u) => u.subscription.type, {
      id: 'plan',
      header: t('admin.users.plan'),
      cell: ({ getValue }) => (
        <span className={`admin-chip plan-${getValue()}`}>{getValue() === 'FREEMIUM' ? t('admin.users.planFree') : t('admin.users.planPremium')}</span>
      ),
    }),
    helper.accessor('createdAt', {
      header: t('admin.users.created'),
      cell: ({ getValue }) => <span className="nowrap">{formatInZone(getValue(), DATE_FORMATS.admin, timeZone)}</span>,
    }),
    flagColumn('isSuspended', t('admin.users.suspended')),
    flagColumn('isEmailVerified', t('admin.users.emailVerified')),
    flagColumn('isLinkedToOAuthAccount', t('admin.users.linkedToOAuth')),
    helper.display({
      id: 'actions',
      header: t('admin.users.actions'),
      cell: ({ row }) => {
        const user = row.original
        const undeletable = user.role === 'ADMIN' || user.id === selfId
        return (
          <div className="row-actions">
            <IconButton icon="mail" label={t('admin.users.editEmailFor', { email: user.email })} onClick={() => handlers.current.setEditing({ kind: 'email', user })} />
            <IconButton icon="key" label={t('admin.users.setPasswordFor', { email: user.email })} onClick={() => handlers.current.setEditing({ kind: 'password', user })} />
            <IconButton icon="trash" label={t('admin.users.deleteFor', { email: user.email })} disabled={undeletable} onClick={() => handlers.current.setEditing({ kind: 'delete', user })} />
          </div>
        )
      },
    }),
  ])
}
