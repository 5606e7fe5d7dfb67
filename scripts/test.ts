// `npm test`: unit and API suites (vitest on Bun), then on the production build the multi-instance journey (two
// instances behind nginx on one PostgreSQL database) and the pages when the database cannot be reached (both skipped,
// saying why, without DATABASE_URL), and the browser journeys.
import { spawnSync } from 'node:child_process'
import { buildSite } from './build'

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

run(process.execPath, ['--bun', 'vitest', 'run'])
buildSite()
run(process.execPath, ['--bun', 'vitest', 'run', '--config', 'tests/scale/vitest.config.ts'])
run('npx', ['playwright', 'test', ...process.argv.slice(2)])
