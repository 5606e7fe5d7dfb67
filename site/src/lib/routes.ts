// The session-dependent redirects of spec §2, decided before a page renders (no flash of the wrong page).
import type { User } from '../../../api/users/users'
import { safeReturnPath } from './safePath'

const ADMIN_ONLY = ['/admin/app/users', '/admin/app/content-editors', '/admin/app/locale-management']

const REDIRECT = 'redirect'

/**
 * The login page for a page whose session is missing or has ended, carrying that page (path and query) so
 * signing in leads back to it: /login for the app, /admin/login for the admin console.
 */
export function loginFor(pathAndSearch: string): string {
  const admin = pathAndSearch.startsWith('/admin')
  const login = admin ? '/admin/login' : '/login'
  const back = pathAndSearch.split('#')[0]
  // Where signing in leads anyway needs no way back.
  const landing = admin ? ['/admin', '/admin/app', '/admin/app/dashboard'] : ['/', '/app', '/app/select-character']
  if (landing.includes(back) || back === login || back.startsWith(`${login}?`)) return login
  return `${login}?${REDIRECT}=${encodeURIComponent(back)}`
}

/** Where signing in leads: the page the login was opened for when it is one of ours, else `fallback`. */
export function afterLogin(search: string, fallback: string): string {
  const back = safeReturnPath(new URLSearchParams(search).get(REDIRECT), fallback)
  const area = fallback.startsWith('/admin') ? '/admin/app' : '/app'
  return back === area || back.startsWith(`${area}/`) || back.startsWith(`${area}?`) ? back : fallback
}

export function appRedirect(rawPath: string, user: User | null, search = ''): string | null {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath
  if (path === '/' || path === '/login') return user ? afterLogin(search, '/app') : null
  if (path === '/app' || path.startsWith('/app/')) {
    if (!user) return loginFor(path + search)
    if (path === '/app') return '/app/select-character'
    return null
  }
  if (path === '/admin') return user ? '/admin/app/dashboard' : '/admin/login'
  if (path === '/admin/login') return user ? afterLogin(search, '/admin/app/dashboard') : null
  if (path.startsWith('/admin/app')) {
    if (!user) return loginFor(path + search)
    if (path === '/admin/app') return '/admin/app/dashboard'
    if (user.role !== 'ADMIN' && ADMIN_ONLY.some((p) => path === p || path.startsWith(p + '/'))) return '/admin/app/dashboard'
  }
  return null
}
