// `npm run test:e2e`: only the browser journeys (builds the site first).
import { spawnSync } from 'node:child_process'
import { buildSite } from './build'

buildSite()
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env })
process.exit(r.status ?? 1)
