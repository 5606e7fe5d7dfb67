// `npm test`: unit and API suites (vitest on Bun), then the browser journeys on the production build.
import { spawnSync } from 'node:child_process'
import { buildSite } from './build'

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

run(process.execPath, ['--bun', 'vitest', 'run'])
buildSite()
run('npx', ['playwright', 'test', ...process.argv.slice(2)])
