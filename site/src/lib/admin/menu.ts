// The admin side menu of spec §2 and §6: every item for ADMIN, Dashboard and Settings for other known roles.
import { ROLES, type Role } from '../../../../api/users/users'

export interface AdminMenuItem {
  href: string
  /** i18n key of the label. */
  label: string
  icon: 'dashboard' | 'users' | 'content' | 'locale' | 'settings'
}

const ALL: AdminMenuItem[] = [
  { href: '/admin/app/dashboard', label: 'admin.nav.dashboard', icon: 'dashboard' },
  { href: '/admin/app/users', label: 'admin.nav.users', icon: 'users' },
  { href: '/admin/app/content-editors', label: 'admin.nav.contentEditors', icon: 'content' },
  { href: '/admin/app/locale-management', label: 'admin.nav.localeManagement', icon: 'locale' },
  { href: '/admin/app/settings', label: 'admin.nav.settings', icon: 'settings' },
]
const OPEN_TO_ALL = ['/admin/app/dashboard', '/admin/app/settings']

export const isKnownRole = (role: string): role is Role => (ROLES as string[]).includes(role)

/** The items a role sees; null when the role is not one the console knows (the menu says so instead). */
export function menuFor(role: string): AdminMenuItem[] | null {
  if (!isKnownRole(role)) return null
  return role === 'ADMIN' ? ALL : ALL.filter((i) => OPEN_TO_ALL.includes(i.href))
}

/** The item a path belongs to (a content editor page belongs to Content Editors). */
export const isCurrent = (item: AdminMenuItem, path: string) => path === item.href || path.startsWith(item.href + '/')
