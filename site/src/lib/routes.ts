// The session-dependent redirects of spec §2, decided before a page renders (no flash of the wrong page).
import type { User } from '../../../api/users/users'

const ADMIN_ONLY = ['/admin/app/users', '/admin/app/content-editors', '/admin/app/locale-management']

export function appRedirect(rawPath: string, user: User | null): string | null {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath
  if (path === '/' || path === '/login') return user ? '/app' : null
  if (path === '/app' || path.startsWith('/app/')) {
    if (!user) return '/login'
    if (path === '/app') return '/app/select-character'
    return null
  }
  if (path === '/admin') return user ? '/admin/app/dashboard' : '/admin/login'
  if (path === '/admin/login') return user ? '/admin/app/dashboard' : null
  if (path.startsWith('/admin/app')) {
    if (!user) return '/admin/login'
    if (path === '/admin/app') return '/admin/app/dashboard'
    if (user.role !== 'ADMIN' && ADMIN_ONLY.some((p) => path === p || path.startsWith(p + '/'))) return '/admin/app/dashboard'
  }
  return null
}
