// The one API client (spec §7/§8): /api/v1 prefix, JSON or multipart, and the shared alerts on failure.
import { showAlert } from './alertDialog'
import { t } from './clientI18n'
import { leaveForLogin } from './session'

export interface ApiErrorBody {
  statusCode: number
  error: string
  message: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
    readonly text: string,
  ) {
    super(body?.message || text || `HTTP ${status}`)
  }
  get code() {
    return this.body?.error
  }
}

export interface ApiOptions {
  method?: string
  body?: unknown
  form?: FormData
  query?: Record<string, string | number | boolean | undefined | null>
  /** Shown in the alert title as "<purpose> failed"; no alert when omitted or when silent. */
  purpose?: string
  silent?: boolean
  signal?: AbortSignal
}

// 401 is expected on these calls (sign-in, the profile session check, sign-out, token checks): no alert.
const SKIP_401 = ['/auth/login', '/self', '/auth/sign-out', '/auth/verify-reset-password-token']
const skips401 = (path: string) => SKIP_401.some((p) => path === p || path.startsWith(p + '/') || path.startsWith(p + '?'))

export function apiUrl(path: string, query?: ApiOptions['query']) {
  const url = new URL('/api/v1' + path, location.origin)
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v))
  return url.toString()
}

/** The alert text of spec §8 for a failed call. */
export function alertMessage(status: number, message: string, method: string, route: string): string {
  switch (status) {
    case 503: return t('alerts.e503')
    case 500: return t('alerts.e500')
    case 400: return t('alerts.e400', { text: message })
    case 401: return t('alerts.e401')
    case 403: return t('alerts.e403', { text: message })
    case 404: return message.startsWith(`Cannot ${method}`) || message === 'route does not exist' ? t('alerts.e404', { route }) : message
    default: return message
  }
}

export async function api<T = unknown>(path: string, opts: ApiOptions = {}): Promise<T> {
  const method = (opts.method ?? (opts.body !== undefined || opts.form ? 'POST' : 'GET')).toUpperCase()
  const headers: Record<string, string> = { accept: 'application/json' }
  let body: BodyInit | undefined
  if (opts.form) body = opts.form
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  let res: Response
  try {
    res = await fetch(apiUrl(path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal })
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    if (opts.purpose && !opts.silent) await showAlert(t('alerts.failedTitle', { purpose: opts.purpose }), t('alerts.network'))
    throw new ApiError(0, null, t('alerts.network'))
  }
  const text = await res.text()
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {}
  if (res.ok) return (parsed ?? text) as T
  // A session that ended while the page was open: to the login and back, rather than an error on the page.
  if (res.status === 401 && !path.startsWith('/auth/')) {
    const leaving = leaveForLogin()
    if (leaving) return leaving
  }
  const errBody = parsed && typeof parsed === 'object' && 'statusCode' in parsed ? (parsed as ApiErrorBody) : null
  const error = new ApiError(res.status, errBody, errBody?.message ?? text)
  const quiet = opts.silent || !opts.purpose || (res.status === 401 && skips401(path))
  if (!quiet) {
    const route = `${method} /api/v1${path}`
    void showAlert(t('alerts.failedTitle', { purpose: opts.purpose }), alertMessage(res.status, error.message, method, route))
  }
  throw error
}
