import { defineConfig } from 'astro/config'
import bun from './adapter/index.mjs'
import react from '@astrojs/react'
import { bundleStats } from './bundleStats.mjs'

// SITE_ADAPTER=node builds with the design's @astrojs/node into dist-node/, for bench/api.ts and bench/pages.ts to
// measure it beside the own Bun adapter (bench/nodeAdapterServer.ts serves it).
const nodeAdapter = process.env.SITE_ADAPTER === 'node'

export default defineConfig({
  output: 'server',
  adapter: nodeAdapter ? (await import('@astrojs/node')).default({ mode: 'standalone', experimentalDisableStreaming: true }) : bun(),
  outDir: nodeAdapter ? './dist-node' : './dist',
  integrations: [react()],
  server: { host: '127.0.0.1', port: 4321 },
  // Session redirects happen in middleware; no page is prerendered with a stale session.
  build: { inlineStylesheets: 'auto' },
  devToolbar: { enabled: false },
  security: {
    // The API checks Origin itself (api/app.ts): payment providers must be able to post back cross-site.
    checkOrigin: false,
    // Each page gets a <meta> Content-Security-Policy with a hash of every inline script it renders, so no
    // other inline script runs; the server adds frame-ancestors and form-action (api/http/securityHeaders.ts).
    csp: {
      directives: [
        "default-src 'self'",
        // Google profile pictures and admin-set track URLs live on other hosts; uploads preview from blob:.
        "img-src 'self' data: blob: https:",
        "media-src 'self' blob: https:",
        "font-src 'self' data:",
        "connect-src 'self' https://accounts.google.com",
        "frame-src https://accounts.google.com",
        "object-src 'none'",
        "base-uri 'self'",
      ],
      scriptDirective: { resources: ["'self'", 'https://accounts.google.com/gsi/client'] },
      // React and the toast, sheet and dialog libraries set style attributes and inject <style> elements;
      // styles cannot run code, so they are not hashed.
      styleDirective: { resources: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'] },
    },
  },
  vite: {
    plugins: await bundleStats(),
    ssr: {
      external: ['postgres', 'elysia', '@electric-sql/pglite', '@electric-sql/pglite-socket', 'nodemailer', 'ollama', 'jose'],
      // Site libraries are bundled (one React, its production build whatever NODE_ENV the process has);
      // the API's server-only packages stay external.
      noExternal: true,
    },
  },
})
