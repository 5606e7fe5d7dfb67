// Calls the API in-process from a page being rendered, as the signed-in user of that request.
import type { AstroGlobal } from 'astro'
import { siteBridge } from '../../../api/siteBridge'

export class ServerApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export async function serverApi<T>(astro: Pick<AstroGlobal, 'request'>, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { cookie: astro.request.headers.get('cookie') ?? '' }
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  const res = await siteBridge().handle(
    new Request(`http://internal/api/v1${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
  )
  const text = await res.text()
  if (!res.ok) throw new ServerApiError(res.status, text)
  return (text ? JSON.parse(text) : null) as T
}
