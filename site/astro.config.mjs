import { defineConfig } from 'astro/config'
import bun from './adapter/index.mjs'
import react from '@astrojs/react'

export default defineConfig({
  output: 'server',
  adapter: bun(),
  integrations: [react()],
  server: { host: '127.0.0.1', port: 4321 },
  // Session redirects happen in middleware; no page is prerendered with a stale session.
  build: { inlineStylesheets: 'auto' },
  devToolbar: { enabled: false },
  // The API checks Origin itself (api/app.ts): payment providers must be able to post back cross-site.
  security: { checkOrigin: false },
  vite: {
    ssr: {
      external: ['postgres', 'elysia', '@electric-sql/pglite', '@electric-sql/pglite-socket', 'nodemailer', 'ollama', 'jose'],
      // Site libraries are bundled (one React, its production build whatever NODE_ENV the process has);
      // the API's server-only packages stay external.
      noExternal: true,
    },
  },
})
