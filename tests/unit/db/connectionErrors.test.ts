import { describe, expect, test } from 'vitest'
import postgres from 'postgres'
import { isConnectionError, readRetried, wholeRows } from '../../../api/db/connectionErrors'

// postgres.js builds its PostgresError from the fields of the server's message (its typings show Error's constructor).
const PostgresError = postgres.PostgresError as unknown as new (fields: Record<string, string>) => Error
const server = (code: string, message: string, severity = 'ERROR') => new PostgresError({ code, message, severity, severity_local: severity })
const socket = (code: string, syscall = 'connect') => Object.assign(new Error(`${syscall} ${code} 127.0.0.1:5432`), { code, errno: -1, syscall })
// As postgres.js makes them (src/errors.js): connection(x) and generic(code, message).
const client = (code: string) => Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code, errno: code, address: '127.0.0.1', port: 5432 })
const generic = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code })

const lost: [string, unknown][] = [
  ['postgres.js: closed under a query', client('CONNECTION_CLOSED')],
  ['postgres.js: pool ended', client('CONNECTION_ENDED')],
  ['postgres.js: connection destroyed', client('CONNECTION_DESTROYED')],
  ['postgres.js: connect timeout', client('CONNECT_TIMEOUT')],
  ...['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN', 'EAI_AGAIN'].map(
    (code) => [`socket: ${code}`, socket(code)] as [string, unknown],
  ),
  ['the embedded database’s socket file is gone', socket('ENOENT')],
  ['57P01 admin_shutdown', server('57P01', 'terminating connection due to administrator command', 'FATAL')],
  ['57P02 crash_shutdown', server('57P02', 'terminating connection because of crash of another server process', 'FATAL')],
  ['57P03 starting up', server('57P03', 'the database system is starting up', 'FATAL')],
  ['57P03 shutting down', server('57P03', 'the database system is shutting down', 'FATAL')],
  ['57P03 in recovery', server('57P03', 'the database system is in recovery mode', 'FATAL')],
  ['57P03 not accepting connections', server('57P03', 'the database system is not accepting connections', 'FATAL')],
  ['57P04 database dropped', server('57P04', 'terminating connection because database was dropped', 'FATAL')],
  ['57P05 idle session timeout', server('57P05', 'terminating connection due to idle-session timeout', 'FATAL')],
  ['25P03 idle in transaction timeout', server('25P03', 'terminating connection due to idle-in-transaction timeout', 'FATAL')],
  ['53300 too many connections', server('53300', 'sorry, too many clients already', 'FATAL')],
  ['53300 reserved slots', server('53300', 'remaining connection slots are reserved for non-replication superuser connections', 'FATAL')],
  ...['08000', '08001', '08003', '08004', '08006', '08007', '08P01'].map(
    (code) => [`${code} connection exception`, server(code, 'connection exception', 'FATAL')] as [string, unknown],
  ),
  ['55000 database not accepting connections', server('55000', 'database "idealself" is not currently accepting connections', 'FATAL')],
  ['PGlite closed', new Error('PGlite is closed')],
  ['PGlite closing', new Error('PGlite is closing')],
  ['a cause', new Error('reading the session failed', { cause: client('CONNECTION_CLOSED') })],
  ['a cause of a cause', new Error('outer', { cause: new Error('inner', { cause: socket('ECONNRESET') }) })],
  ['every address refused', new AggregateError([socket('ECONNREFUSED'), socket('ECONNREFUSED')], 'connect failed')],
]

const notLost: [string, unknown][] = [
  ['23505 unique violation', server('23505', 'duplicate key value violates unique constraint "users_email_key"')],
  ['23503 foreign key violation', server('23503', 'insert or update on table "x" violates foreign key constraint')],
  ['23502 not null violation', server('23502', 'null value in column "name" violates not-null constraint')],
  ['23514 check violation', server('23514', 'new row violates check constraint')],
  ['42601 syntax error', server('42601', 'syntax error at or near "selec"')],
  ['42P01 undefined table', server('42P01', 'relation "nope" does not exist')],
  ['42703 undefined column', server('42703', 'column "nope" does not exist')],
  ['42501 insufficient privilege', server('42501', 'permission denied for table users')],
  ['40001 serialization failure', server('40001', 'could not serialize access due to concurrent update')],
  ['40P01 deadlock', server('40P01', 'deadlock detected')],
  ['57014 statement timeout', server('57014', 'canceling statement due to statement timeout')],
  ['57014 cancelled', generic('57014', 'canceling statement due to user request')],
  ['22012 division by zero', server('22012', 'division by zero')],
  ['22P02 invalid text', server('22P02', 'invalid input syntax for type uuid: "x"')],
  ['25P02 failed transaction', server('25P02', 'current transaction is aborted, commands ignored until end of transaction block')],
  ['55000 currval not yet defined', server('55000', 'currval of sequence "jobs_id_seq" is not yet defined in this session')],
  ['55P03 lock not available', server('55P03', 'could not obtain lock on row in relation "jobs"')],
  ['53100 disk full', server('53100', 'could not extend file: No space left on device')],
  ['53200 out of memory', server('53200', 'out of memory')],
  ['28P01 wrong password', server('28P01', 'password authentication failed for user "postgres"', 'FATAL')],
  ['3D000 no such database', server('3D000', 'database "nope" does not exist', 'FATAL')],
  ['P0001 raised', server('P0001', 'raised by a function')],
  ['XX000 internal', server('XX000', 'internal error')],
  ['postgres.js: unsafe transaction', generic('UNSAFE_TRANSACTION', 'Only use sql.begin, sql.reserved or max: 1')],
  ['postgres.js: undefined value', generic('UNDEFINED_VALUE', 'Undefined values are not allowed')],
  ['postgres.js: too many parameters', generic('MAX_PARAMETERS_EXCEEDED', 'Max number of parameters (65534) exceeded')],
  ['a file that is not there', socket('ENOENT', 'open')],
  ['a file that may not be read', socket('EACCES', 'open')],
  ['a programming error', new TypeError('Cannot read properties of undefined')],
  ['an HTTP error', Object.assign(new Error('Not found'), { statusCode: 404 })],
  ['a message that only mentions PGlite', new Error('PGlite is closed for maintenance tonight')],
  ['a query error caused by a query error', new Error('outer', { cause: server('23505', 'duplicate key') })],
  ['some addresses refused, one other failure', new AggregateError([socket('ECONNREFUSED'), server('28P01', 'password authentication failed', 'FATAL')])],
  ['no error', null],
  ['a string', 'CONNECTION_CLOSED'],
  ['a number code', Object.assign(new Error('x'), { code: 8006 })],
]

describe('which errors are a lost database connection', () => {
  test.each(lost)('lost: %s', (_, error) => expect(isConnectionError(error)).toBe(true))
  test.each(notLost)('not lost: %s', (_, error) => expect(isConnectionError(error)).toBe(false))

  test('as postgres.js really raises them: a pool that was ended, a server that refuses the connection', async () => {
    const ended = postgres({ host: '127.0.0.1', port: 1, onnotice: () => {} })
    await ended.end()
    expect(isConnectionError(await ended`select 1`.then(() => null, (e: unknown) => e))).toBe(true)
    const refused = postgres({ host: '127.0.0.1', port: 1, connect_timeout: 2, onnotice: () => {} })
    expect(isConnectionError(await refused`select 1`.then(() => null, (e: unknown) => e))).toBe(true)
    await refused.end({ timeout: 0 })
  })
})

describe('a read tried again on a lost connection', () => {
  test('once, and only for a lost connection', async () => {
    const tries = (errors: unknown[]) => {
      let n = 0
      const read = async () => {
        const error = errors[n++]
        if (error) throw error
        return 'rows'
      }
      return { read, count: () => n }
    }
    const once = tries([client('CONNECTION_CLOSED')])
    await expect(readRetried(once.read)).resolves.toBe('rows')
    expect(once.count()).toBe(2)
    const twice = tries([client('CONNECTION_CLOSED'), socket('ECONNREFUSED')])
    await expect(readRetried(twice.read)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(twice.count()).toBe(2)
    const wrong = tries([server('42601', 'syntax error')])
    await expect(readRetried(wrong.read)).rejects.toMatchObject({ code: '42601' })
    expect(wrong.count()).toBe(1)
  })
})

describe('a result with holes', () => {
  test('is a lost connection; a whole result, empty or not, is itself', () => {
    const holed: unknown[] = []
    holed[2] = { id: 'a' }
    expect(() => wholeRows(holed)).toThrow()
    expect(isConnectionError((() => { try { wholeRows(holed) } catch (e) { return e } })())).toBe(true)
    const rows = [{ id: 'a' }, { id: 'b' }]
    expect(wholeRows(rows)).toBe(rows)
    expect(wholeRows([])).toEqual([])
  })
})
