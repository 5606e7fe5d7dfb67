// The one error shape of the API (DESIGN §5): { statusCode, error, message }.
export interface ErrorBody {
  statusCode: number
  error: string
  message: string
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
  ) {
    super(message)
  }
  toBody(): ErrorBody {
    return { statusCode: this.statusCode, error: this.error, message: this.message }
  }
}

export const badRequest = (message: string, error = 'BadRequest') => new HttpError(400, error, message)
export const unauthorized = (message = 'Not signed in', error = 'Unauthorized') => new HttpError(401, error, message)
export const forbidden = (message = 'You are not allowed to do this', error = 'Forbidden') => new HttpError(403, error, message)
export const notFound = (message = 'Not found', error = 'NotFound') => new HttpError(404, error, message)
export const conflict = (message: string, error = 'Conflict') => new HttpError(409, error, message)
export const tooMany = (message: string) => new HttpError(429, 'TooManyRequests', message)

export function errorResponse(body: ErrorBody, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status: body.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}
