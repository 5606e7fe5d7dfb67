// Admin user management (spec §4, §5, §6): the server pages, sorts and filters; each change goes to
// PATCH /users/{id} and the row is replaced with what the server answers.
import { useEffect, useMemo, useRef, useState } from 'react'
import * as Tooltip from '@radix-ui/react-tooltip'
import { toast } from '../../lib/toast'
import {
  useTable,
  type ColumnFiltersState,
  type PaginationState,
  type SortingState,
} from '@tanstack/react-table'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { IconButton } from '../../components/admin/IconButton'
import { DeleteDialog, EmailDialog, PasswordDialog } from '../../components/admin/UserDialogs'
import { SortHeader } from '../../components/admin/SortHeader'
import { features, userColumns, type Editing } from '../../components/admin/userColumns'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'
import type { User } from '../../../../api/users/users'

export interface UsersPage {
  users: User[]
  total: number
}

interface Props {
  initial: UsersPage
  selfId: string
  timeZone: string
}


const PAGE_SIZES = [10, 20, 50, 100]
export const FIRST_PAGE: PaginationState = { pageIndex: 0, pageSize: 20 }
export const NEWEST_FIRST: SortingState = [{ id: 'createdAt', desc: true }]
const SEARCH_DELAY_MS = 300
const ROLE_FILTERS = ['ADMIN', 'REGULAR', 'DEVELOPER'] as const
// Table column → the API's sort key.
const SORT_KEYS: Record<string, string> = { name: 'name', email: 'email', role: 'role', plan: 'subscription', createdAt: 'createdAt' }


function Users({ initial, selfId, timeZone }: Props) {
  const t = useT()
  const [data, setData] = useState(initial)
  const [sorting, setSorting] = useState<SortingState>(NEWEST_FIRST)
  const [pagination, setPagination] = useState<PaginationState>(FIRST_PAGE)
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([])
  const [globalFilter, setGlobalFilter] = useState('')
  const [search, setSearch] = useState('')
  const [loading, setLoading] = useState(false)
  const [pending, setPending] = useState<Set<string>>(new Set())
  const [editing, setEditing] = useState<Editing>(null)
  const [reload, setReload] = useState(0)
  const firstLoad = useRef(true)
  const role = (columnFilters.find((f) => f.id === 'role')?.value as string | undefined) ?? ''

  // The search box waits for typing to pause before it asks the server.
  useEffect(() => {
    if (search === globalFilter) return
    const timer = setTimeout(() => {
      setGlobalFilter(search)
      setPagination((p) => ({ ...p, pageIndex: 0 }))
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [search])

  useEffect(() => {
    // The page rendered with the first page already.
    if (firstLoad.current) {
      firstLoad.current = false
      return
    }
    const abort = new AbortController()
    setLoading(true)
    const sort = sorting[0] ?? NEWEST_FIRST[0]
    api<UsersPage>('/users', {
      query: {
        page: pagination.pageIndex + 1,
        pageSize: pagination.pageSize,
        sort: SORT_KEYS[sort.id],
        order: sort.desc ? 'desc' : 'asc',
        q: globalFilter.trim() || undefined,
        role: role || undefined,
      },
      purpose: t('admin.users.load'),
      signal: abort.signal,
    })
      .then((page) => {
        // A page emptied by deletions steps back to the last page that has rows.
        if (page.users.length === 0 && page.total > 0 && pagination.pageIndex > 0)
          setPagination((p) => ({ ...p, pageIndex: Math.ceil(page.total / p.pageSize) - 1 }))
        setData(page)
        setLoading(false)
      })
      .catch((e) => {
        if ((e as Error).name !== 'AbortError') setLoading(false)
      })
    return () => abort.abort()
  }, [sorting, pagination, globalFilter, role, reload])

  const busy = (id: string, field: string) => pending.has(`${id}:${field}`)
  function mark(id: string, field: string, on: boolean) {
    setPending((s) => {
      const next = new Set(s)
      if (on) next.add(`${id}:${field}`)
      else next.delete(`${id}:${field}`)
      return next
    })
  }

  /** One change to one user; the row then shows what the server saved. Without a purpose the caller
   *  shows the failure (dialogs do, inside themselves). */
  async function patch(user: User, body: Record<string, unknown>, purpose?: string) {
    const saved = await api<User>(`/users/${user.id}`, { method: 'PATCH', body, purpose, silent: !purpose })
    setData((d) => ({ ...d, users: d.users.map((u) => (u.id === saved.id ? saved : u)) }))
  }

  /** A switch or the role chip: refusals are alerted with the server's words. */
  async function change(user: User, body: Record<string, unknown>, purpose: string) {
    const field = Object.keys(body)[0]
    mark(user.id, field, true)
    try {
      await patch(user, body, purpose)
    } catch {
      // The wrapper has alerted; the row still shows the saved value.
    } finally {
      mark(user.id, field, false)
    }
  }

  async function remove(user: User) {
    await api(`/users/${user.id}`, { method: 'DELETE', silent: true })
    toast.success(t('admin.users.deleted', { email: user.email }))
    setReload((n) => n + 1)
  }

  // Cells read the latest handlers through this ref, so the column list is made once.
  const handlers = useRef({ change, busy, setEditing })
  handlers.current = { change, busy, setEditing }
  const columns = useMemo(() => userColumns({ t, timeZone, selfId, handlers }), [])

  const table = useTable({
    features,
    columns,
    data: data.users,
    getRowId: (u) => u.id,
    state: { sorting, pagination, columnFilters, globalFilter },
    onSortingChange: (updater) => {
      setSorting(updater)
      setPagination((p) => ({ ...p, pageIndex: 0 }))
    },
    onPaginationChange: setPagination,
    onColumnFiltersChange: setColumnFilters,
    onGlobalFilterChange: setGlobalFilter,
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    enableSortingRemoval: false,
    rowCount: data.total,
  })

  const from = data.total === 0 ? 0 : pagination.pageIndex * pagination.pageSize + 1
  const to = Math.min(data.total, (pagination.pageIndex + 1) * pagination.pageSize)

  return (
    <Tooltip.Provider delayDuration={300}>
      <div className="admin-toolbar" role="search">
        <label className="field grow" htmlFor="users-search">
          <span>{t('admin.users.search')}</span>
          <span className="admin-search">
            <AdminIcon name="search" size={18} />
            <input id="users-search" type="search" value={search} placeholder={t('admin.users.searchPlaceholder')} onChange={(e) => setSearch(e.target.value)} />
          </span>
        </label>
        <div className="field">
          <label htmlFor="users-role">{t('admin.users.role')}</label>
          <select
            id="users-role"
            value={role}
            onChange={(e) => {
              table.getColumn('role')?.setFilterValue(e.target.value || undefined)
              setPagination((p) => ({ ...p, pageIndex: 0 }))
            }}
          >
            <option value="">{t('admin.users.allRoles')}</option>
            {ROLE_FILTERS.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
      </div>
      <div className="admin-table-wrap" aria-busy={loading}>
        <table className="admin-table users-table" data-testid="users-table">
          <caption className="sr-only">{t('admin.users.caption')}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortHeader key={header.id} header={header}>
                    <table.FlexRender header={header} />
                  </SortHeader>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-testid={`user-row-${row.original.email}`}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} data-column={cell.column.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
            {data.users.length === 0 && (
              <tr>
                <td className="empty" colSpan={columns.length}>{loading ? t('common.loading') : t('admin.users.none')}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="admin-pagination">
        <span role="status">{t('admin.users.showing', { from, to, total: data.total })}</span>
        <div className="pager">
          <label htmlFor="users-page-size">{t('admin.users.pageSize')}</label>
          <select id="users-page-size" value={pagination.pageSize} onChange={(e) => setPagination({ pageIndex: 0, pageSize: Number(e.target.value) })}>
            {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
          <IconButton icon="arrowLeft" label={t('admin.users.previousPage')} disabled={!table.getCanPreviousPage() || loading} onClick={() => table.previousPage()} />
          <span>{t('admin.users.page', { page: pagination.pageIndex + 1, pages: Math.max(1, table.getPageCount()) })}</span>
          <IconButton icon="arrowRight" label={t('admin.users.nextPage')} disabled={!table.getCanNextPage() || loading} onClick={() => table.nextPage()} />
        </div>
      </div>
      {editing?.kind === 'email' && (
        <EmailDialog
          user={editing.user}
          onClose={() => setEditing(null)}
          onSave={async (body) => {
            await patch(editing.user, body)
            toast.success(t('admin.users.emailUpdated'))
          }}
        />
      )}
      {editing?.kind === 'password' && (
        <PasswordDialog
          user={editing.user}
          onClose={() => setEditing(null)}
          onSave={async (body) => {
            await patch(editing.user, body)
            toast.success(t('admin.users.passwordSet'))
          }}
        />
      )}
      {editing?.kind === 'delete' && <DeleteDialog user={editing.user} onClose={() => setEditing(null)} onDelete={() => remove(editing.user)} />}
    </Tooltip.Provider>
  )
}

export default function UsersTable(props: Props) {
  return (
    <ErrorBoundary>
      <Users {...props} />
    </ErrorBoundary>
  )
}
