import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { closeness, type ClosenessInput } from '../../../api/chat-import/analysis/closeness'

const input = fc.record({
  sent: fc.nat({ max: 100_000 }),
  received: fc.nat({ max: 100_000 }),
  daysSinceLast: fc.double({ min: 0, max: 5000, noNaN: true }),
})

describe('closeness', () => {
  test('is always a whole number from 1 to 5', () => {
    fc.assert(
      fc.property(input, (i) => {
        const c = closeness(i)
        expect(Number.isInteger(c)).toBe(true)
        expect(c).toBeGreaterThanOrEqual(1)
        expect(c).toBeLessThanOrEqual(5)
      }),
    )
  })

  test('the extremes: nothing long ago is distant, thousands of balanced messages this week are intimate', () => {
    expect(closeness({ sent: 0, received: 0, daysSinceLast: 2000 })).toBe(1)
    expect(closeness({ sent: 1, received: 0, daysSinceLast: 700 })).toBe(1)
    expect(closeness({ sent: 3000, received: 2800, daysSinceLast: 0 })).toBe(5)
  })

  test('more messages, a more recent exchange or a more even exchange never makes someone less close', () => {
    fc.assert(
      fc.property(input, fc.nat({ max: 5000 }), fc.double({ min: 0, max: 1000, noNaN: true }), (i, more, earlier) => {
        expect(closeness({ ...i, sent: i.sent + more, received: i.received + more })).toBeGreaterThanOrEqual(closeness(i))
        expect(closeness({ ...i, daysSinceLast: Math.max(0, i.daysSinceLast - earlier) })).toBeGreaterThanOrEqual(closeness(i))
        const total = i.sent + i.received
        const even: ClosenessInput = { ...i, sent: Math.ceil(total / 2), received: Math.floor(total / 2) }
        // Same volume, split evenly: at least as close as any uneven split.
        expect(closeness(even)).toBeGreaterThanOrEqual(closeness(i))
      }),
    )
  })

  test('each of volume, recency and reciprocity moves the score on its own', () => {
    const base = { sent: 40, received: 40, daysSinceLast: 10 }
    expect(closeness({ ...base, sent: 1500, received: 1500 })).toBeGreaterThan(closeness(base))
    expect(closeness({ ...base, daysSinceLast: 400 })).toBeLessThan(closeness(base))
    expect(closeness({ sent: 80, received: 0, daysSinceLast: 10 })).toBeLessThan(closeness(base))
  })
})
