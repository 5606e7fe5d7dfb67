import { expect, test } from 'vitest'
import { defaultRetryDelayMs } from '../../../api/jobs/worker'

test('failed attempts wait 2 s, 4 s, 8 s … and never more than a minute', () => {
  expect([1, 2, 3, 4, 5, 6].map(defaultRetryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000])
  expect(defaultRetryDelayMs(40)).toBe(60_000)
})
