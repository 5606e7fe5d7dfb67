// A page whose session has ended (expired, signed out elsewhere, suspended) takes the person to the login, which
// brings them back to this very page once they have signed in again.
import { loginFor } from './routes'

/** Pages that need a session; a 401 anywhere else (the login pages themselves) is an answer, not an ending. */
const SIGNED_IN_AREA = /^\/(app|admin\/app)(\/|$)/

/**
 * Leaves for the login when this page needs a session. The returned promise never settles: the page is going
 * away, and callers awaiting the call must not show an error or roll anything back in the meantime.
 */
export function leaveForLogin(): Promise<never> | null {
  if (!SIGNED_IN_AREA.test(location.pathname)) return null
  location.assign(loginFor(location.pathname + location.search))
  return new Promise<never>(() => {})
}
