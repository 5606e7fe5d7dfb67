import { expect, test } from 'vitest'
import { isClientDateTime } from '../../../api/chat/clientDateTime'

test('accepts the spec format with a matching weekday', () => {
  expect(isClientDateTime('Sunday 2026-11-22 10:30:00')).toBe(true)
  expect(isClientDateTime('Thursday 2024-02-29 23:59:59')).toBe(true)
})

test.each([
  ['the wrong weekday', 'Monday 2026-11-22 10:30:00'],
  ['an impossible date', 'Friday 2026-02-30 10:30:00'],
  ['an impossible time', 'Sunday 2026-11-22 24:00:00'],
  ['no weekday', '2026-11-22 10:30:00'],
  ['an ISO timestamp', '2026-11-22T10:30:00Z'],
  ['a short weekday', 'Sun 2026-11-22 10:30:00'],
  ['trailing text', 'Sunday 2026-11-22 10:30:00; drop table'],
])('refuses %s', (_, value) => {
  expect(isClientDateTime(value)).toBe(false)
})
