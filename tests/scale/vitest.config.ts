import { defineConfig } from 'vitest/config'

// The multi-instance journey: processes, a proxy and a database of its own; run after the site is built.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    pool: 'threads',
    include: ['tests/scale/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
})
