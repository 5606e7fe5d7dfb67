// A model that fails, times out or answers nothing is reported as spec §8's BotResponseFailureException. The
// details (hosts, upstream statuses) go to the log, not to the person.
import { HttpError } from '../http/errors'

/** How long a reply may take, from the request to the model's last word. Stale cleanup waits longer than this. */
export const REPLY_TIMEOUT_MS = 3 * 60 * 1000

export function botFailure(cause: unknown): HttpError {
  const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError'
  console.warn(`Chat reply failed: ${cause instanceof Error ? cause.message : String(cause)}`)
  return new HttpError(
    502,
    'BotResponseFailureException',
    timedOut ? 'The model did not finish its reply in time' : 'No response was returned from the model',
  )
}
