import { describe, expect, test } from 'vitest'
import { clientAddress, parseTrustedProxies } from '../../../api/http/clientAddress'

const none = parseTrustedProxies('')
const lb = parseTrustedProxies('loopback, 10.0.0.0/8, 2001:db8::/32')

describe('clientAddress', () => {
  test('with no trusted proxies the socket address is the client, whatever the header says', () => {
    expect(clientAddress('203.0.113.7', '1.1.1.1', none)).toBe('203.0.113.7')
    expect(clientAddress('::ffff:203.0.113.7', null, none)).toBe('203.0.113.7')
  })
  test('an untrusted peer cannot forward for anyone', () => {
    expect(clientAddress('203.0.113.7', '127.0.0.1', lb)).toBe('203.0.113.7')
  })
  test('through trusted proxies the right-most untrusted hop is the client', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', lb)).toBe('198.51.100.1')
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1', lb)).toBe('198.51.100.1')
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.2.3.4', lb)).toBe('198.51.100.1')
    expect(clientAddress('::1', '2001:db8::5, [2001:db9::1]', lb)).toBe('2001:db9::1')
  })
  test('a malformed hop stops the walk at the last address that could be followed', () => {
    expect(clientAddress('127.0.0.1', 'x, not-an-ip', lb)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', '198.51.100.1, garbage, 10.0.0.1', lb)).toBe('10.0.0.1')
  })
  test('configuration: addresses, ranges and names; anything else is an error', () => {
    expect(parseTrustedProxies('192.0.2.1, private').length).toBeGreaterThan(1)
    expect(() => parseTrustedProxies('not-a-proxy')).toThrow()
    expect(() => parseTrustedProxies('10.0.0.0/99')).toThrow()
  })
})
