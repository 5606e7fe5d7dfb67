import { defineConfig } from '@playwright/test'

// Two copies of the production build: one answering with the offline provider, one with a local server that
// speaks Ollama's wire format (scripted through its control port).
const offlinePort = Number(process.env.E2E_PORT ?? 4399)
const ollamaPort = offlinePort - 1
export const controlPort = offlinePort + 100

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
}

const server = (port: number, env: Record<string, string>) => ({
  command: 'bun scripts/e2eServer.ts',
  url: `http://localhost:${port}/api/v1/health`,
  timeout: 180_000,
  reuseExistingServer: false,
  env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, ...env },
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
})

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // The service worker has journeys of its own (installable.spec.ts, which allows it); elsewhere it would only add
  // its fetch hops to every load on a busy machine, and requests it answers bypass page.route.
  use: { locale: 'en-US', trace: 'retain-on-failure', launchOptions: chromium, serviceWorkers: 'block' },
  projects: [
    { name: 'offline', use: { baseURL: `http://localhost:${offlinePort}` }, testIgnore: /\.ollama\.spec\.ts$/ },
    { name: 'ollama', use: { baseURL: `http://localhost:${ollamaPort}` }, testMatch: /\.ollama\.spec\.ts$/ },
  ],
  webServer: [server(offlinePort, {}), server(ollamaPort, { E2E_MODEL: 'ollama', E2E_CONTROL_PORT: String(controlPort) })],
})
