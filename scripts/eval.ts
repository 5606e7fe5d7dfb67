// `npm run eval`: scores a model on the companion's scripted conversations (see eval/cli.ts, README "Model guide").
import { runEval, USAGE } from '../eval/cli'

const argv = process.argv.slice(2).filter((a) => a !== '--')
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
try {
  await runEval(argv)
  process.exit(0)
} catch (error) {
  console.error(`eval: ${(error as Error).message}`)
  process.exit(1)
}
