// A minimal Astro adapter for Bun: the build exports Astro's App, and scripts/start.ts serves it with
// Bun.serve (fetch-style, no Node http emulation in between).
export default function bunAdapter() {
  return {
    name: 'ideal-self-bun',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        // No server-side Astro sessions: the product keeps its sessions in PostgreSQL.
        updateConfig({ build: { redirects: false }, session: undefined })
      },
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'ideal-self-bun',
          entrypointResolution: 'auto',
          serverEntrypoint: new URL('./server.mjs', import.meta.url).pathname,
          adapterFeatures: { buildOutput: 'server', middlewareMode: 'classic' },
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'stable', hybridOutput: 'stable', sharpImageService: 'stable', envGetSecret: 'stable' },
        })
      },
    },
  }
}
