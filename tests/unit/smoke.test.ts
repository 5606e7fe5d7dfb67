import { test, expect } from 'vitest'
test('bun runtime', () => { expect(typeof Bun.password.hash).toBe('function') })
