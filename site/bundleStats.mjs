// With BUNDLE_STATS=<file>, the client build writes what each chunk is made of (rollup-plugin-visualizer's raw
// data, gzip sizes per module) for bench/bundle.ts; ordinary builds load nothing extra.
export async function bundleStats() {
  const file = process.env.BUNDLE_STATS
  if (!file) return []
  const { visualizer } = await import('rollup-plugin-visualizer')
  const plugin = visualizer({ filename: file, template: 'raw-data', gzipSize: true })
  // The server build would overwrite the client's figures.
  return [{ ...plugin, applyToEnvironment: (env) => env.name === 'client' }]
}
