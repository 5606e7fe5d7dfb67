import { expect, test } from 'vitest'
import { isConnectionError } from '../../../api/db/connectionErrors'

const err = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause })

test('lost connections are told apart from bad queries and bad data', () => {
  for (const code of ['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED', '57P01', '57P02', '57P03', '08006', '08003'])
    expect(isConnectionError(err(code)), code).toBe(true)
  expect(isConnectionError(err('WRAPPED', err('CONNECTION_CLOSED')))).toBe(true)
  for (const code of ['23505', '22P02', '42P01', '40001', '57014', 'UNDEFINED_VALUE'])
    expect(isConnectionError(err(code)), code).toBe(false)
  expect(isConnectionError(new Error('x'))).toBe(false)
  expect(isConnectionError(null)).toBe(false)
})
