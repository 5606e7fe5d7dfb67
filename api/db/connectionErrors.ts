// Errors that mean the database connection was lost or could not be made (PostgreSQL restarting, shutting down or
// refusing new connections, a pooler or an administrator ended the backend, the network dropped) rather than that
// the query or the data was wrong. A query error is never one of them: the same query would fail again.

// postgres.js's own codes for a connection that closed under a query, was ended or destroyed, or could not be
// opened in time (node_modules/postgres/src/connection.js and index.js).
const CLIENT_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT'])

// Socket errors, as Node and Bun name them: refused, reset, timed out, unreachable, or a name that did not resolve
// for the moment.
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH',
  'ENETDOWN', 'ENETRESET', 'ENOTCONN', 'EAI_AGAIN',
])

// SQLSTATEs of a server that ended the session or would not start one:
// class 08 (connection exception: 08000, 08001, 08003, 08004, 08006, 08007, 08P01),
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery),
// 57P04 database_dropped, 57P05 idle_session_timeout, 25P03 idle_in_transaction_session_timeout (the server ends
// the connection) and 53300 too_many_connections.
const SERVER_CODES = /^(08[0-9A-Z]{3}|57P0[1-5]|25P03|53300)$/

// 55000 object_not_in_prerequisite_state is a query error too (e.g. a sequence's currval before nextval); only its
// refusal of new connections ("database … is not currently accepting connections") is a lost connection.
const NOT_ACCEPTING = /not (currently |yet )?accepting connections/i

// The embedded database itself, closed or closing under a query.
const PGLITE_CLOSED = /^PGlite is clos(ed|ing)$/

function isLoss(error: object): boolean {
  const { code, message, syscall } = error as { code?: unknown; message?: unknown; syscall?: unknown }
  if (typeof code === 'string') {
    if (CLIENT_CODES.has(code) || SOCKET_CODES.has(code) || SERVER_CODES.test(code)) return true
    if (code === '55000') return typeof message === 'string' && NOT_ACCEPTING.test(message)
    // The embedded database's socket file is gone (it stopped): a connection that cannot be made, not a missing file.
    if (code === 'ENOENT') return syscall === 'connect'
    return false
  }
  return typeof message === 'string' && PGLITE_CLOSED.test(message)
}

export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false
  if (isLoss(error)) return true
  // A connection tried on several addresses fails with each (AggregateError); it is lost when all of them were.
  const errors = (error as { errors?: unknown }).errors
  if (Array.isArray(errors) && errors.length && errors.every((e) => isConnectionError(e, depth + 1))) return true
  return isConnectionError((error as { cause?: unknown }).cause, depth + 1)
}

/** A read that is tried once more when the connection was lost under it: postgres.js opens a fresh one for it. */
export async function readRetried<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (!isConnectionError(error)) throw error
    return read()
  }
}

/**
 * The rows of a result, or a lost-connection error when postgres.js handed back a result with holes. When a
 * connection is lost (or a query fails) in the middle of a result, the next result on that connection is written from
 * the old row count on (postgres.js 3.4, porsager/postgres#1119 and #1181): its first rows read as missing, and a
 * session that exists would read as none. Such a read is untrustworthy; the connection is fine again after it.
 */
export function wholeRows<T>(rows: T[]): T[] {
  for (let i = 0; i < rows.length; i++) {
    if (!(i in rows)) throw Object.assign(new Error('A result came back with rows missing after a lost connection'), { code: 'CONNECTION_CLOSED' })
  }
  return rows
}
