import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    pool: 'threads',
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
    globalSetup: ['tests/helpers/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // API suites share one database; files run one at a time so rows never collide.
    fileParallelism: false,
  },
})
