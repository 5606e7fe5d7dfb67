// How large a request body each route takes, enforced before a byte is parsed: a declared Content-Length over
// the limit is refused at once, and a body without one (chunked) is cut off as soon as it passes the limit,
// so no request makes the process hold more than its route allows.
import type { Config } from '../config'
import { HttpError } from './errors'
import { MAX_FILES } from '../chat-import/analysis/uploads'
import { CARD_MAX_BYTES } from '../characters/characterCard'

/** JSON and form bodies of every route without a larger need. */
export const JSON_BODY_MAX = 256 * 1024
/** Locale docs and content tables edited in the admin console. */
export const CONTENT_BODY_MAX = 2 * 1024 * 1024
/** Room for multipart boundaries and the small text fields beside the files. */
const MULTIPART_OVERHEAD = 64 * 1024

export function bodyLimit(pathname: string, cfg: Pick<Config, 'uploadMaxBytes' | 'chatHistoryMaxBytes'>): number {
  if (pathname === '/api/v1/self/file') return cfg.uploadMaxBytes + MULTIPART_OVERHEAD
  if (/^\/api\/v1\/chatbots\/characters\/[^/]+\/chat-history$/.test(pathname))
    return MAX_FILES * cfg.chatHistoryMaxBytes + MULTIPART_OVERHEAD
  if (pathname.startsWith('/api/v1/content-editors/')) return CONTENT_BODY_MAX
  if (pathname === '/api/v1/chatbots/characters/card') return CARD_MAX_BYTES + MULTIPART_OVERHEAD
  return JSON_BODY_MAX
}

export function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
  return `${Math.round(bytes / 1024)} KB`
}

export const tooLarge = (limit: number) =>
  new HttpError(413, 'PayloadTooLarge', `The request body is larger than this call accepts (${formatLimit(limit)})`)

/**
 * The request as the handlers should read it: unchanged when it has no body or declares a length within the
 * limit (the server stops reading at a declared length), else refused or wrapped so reading stops at the limit.
 */
export function limitBody(request: Request, limit: number): Request {
  if (!request.body) return request
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    if (Number(declared) > limit) throw tooLarge(limit)
    return request
  }
  let seen = 0
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > limit) controller.error(tooLarge(limit))
      else controller.enqueue(chunk)
    },
  })
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body.pipeThrough(counter),
    signal: request.signal,
    duplex: 'half',
  } as RequestInit)
}
