// `npm run eval:compare -- A.json B.json`: what changed between two eval runs, as Markdown on standard output.
import { compareMain } from '../eval/cli'

try {
  console.log(compareMain(process.argv.slice(2)))
} catch (error) {
  console.error(`eval:compare: ${(error as Error).message}`)
  process.exit(1)
}
