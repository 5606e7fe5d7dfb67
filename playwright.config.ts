import { defineConfig } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 4399)
export const baseURL = `http://localhost:${port}`

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    // The production build, started the way a user starts it, on a fresh data folder.
    command: `bun scripts/e2eServer.ts`,
    url: `${baseURL}/api/v1/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: { PORT: String(port), PUBLIC_URL: baseURL },
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
