import { defineConfig } from 'vitest/config'

// What needs the production build, run after the site is built: the multi-instance journey (processes, a proxy and a
// database of its own) and the pages when the database cannot be reached.
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
