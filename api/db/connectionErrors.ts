// Errors that mean the database connection was lost (PostgreSQL restarted, a pooler or an administrator ended
// the backend, the network dropped) rather than that the query or the data was wrong.
const CLIENT_CODES = new Set([
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH',
])
// SQLSTATE class 08 (connection exception) and the shutdown codes of class 57.
const SERVER_CODES = /^(08...|57P01|57P02|57P03)$/

export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (CLIENT_CODES.has(code) || SERVER_CODES.test(code))) return true
  return isConnectionError((error as { cause?: unknown }).cause, depth + 1)
}
