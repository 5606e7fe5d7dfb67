// Who may try to sign in, decided so that no stranger can lock a person out (spec §8 texts stay as they are):
// - a source address with many failures over any accounts is refused (password spraying, credential stuffing);
// - an account with several failures stays open to sources that have not failed on it, so wrong guesses from
//   elsewhere never shut the real person out; the sources that did fail are refused;
// - an account under a wide attack (many failures, many sources) stays open only to sources that have signed
//   into it before.
// Google sign-in and password-reset mail are limited per source and per account the same way.
import type { Sql } from '../db/database'
import { attemptCount, clearAttempts, forgetAttempt, recordAttempt } from './attemptLimits'

const WINDOW_MS = 15 * 60 * 1000
/** Google sign-ins are counted per minute: a household or office behind one address signs in many times a day. */
const OAUTH_WINDOW_MS = 60 * 1000
const KNOWN_SOURCE_MS = 90 * 24 * 60 * 60 * 1000

export const LIMITS = {
  /** Failed credential sign-ins from one source, over every account. */
  sourceFailures: 30,
  /** Failures on one account after which a source that failed on it is refused. */
  accountGuard: 5,
  /** Failures on one account after which only sources it signed in from before may try. */
  knownSourcesOnly: 50,
  /** Google sign-ins (successful or not) from one source in a minute. */
  oauthPerSource: 30,
  /** Google sign-ins into one account in a minute. */
  oauthPerAccount: 10,
  /** Password-reset mails to one address, and requests from one source. */
  resetPerAccount: 3,
  resetPerSource: 20,
} as const

export const TOO_MANY_FROM_SOURCE = 'Too many sign-in attempts from your network, please try again in 15 minutes'
export const TOO_MANY_OAUTH_FROM_SOURCE = 'Too many sign-ins from your network, please try again in a minute'
export const TOO_MANY_FOR_ACCOUNT = 'Too many failed sign-in attempts, please try again in 15 minutes'

const keys = (email: string, source: string) => ({
  source: `signin-src:${source}`,
  account: `signin-acct:${email}`,
  pair: `signin-pair:${email}|${source}`,
  known: `signin-known:${email}|${source}`,
})

/**
 * Null when this source may try this account's password now, else the refusal's message. The try is counted as a
 * failure before the password is checked, in one statement with every other try of the moment on any instance, so
 * tries made at once are each judged on those before them and the limits hold exactly; a refused try is taken
 * back (refusals never add up to a lock-out of the real person), and so is one that succeeds.
 */
export async function credentialAttempt(sql: Sql, email: string, source: string): Promise<string | null> {
  const k = keys(email, source)
  const counted = [k.source, k.account, k.pair]
  const [fromSource, onAccount, pair] = (await recordAttempt(sql, counted, WINDOW_MS)).map((n) => n - 1)
  const refusal = await refusalOf(sql, k.known, fromSource, onAccount, pair)
  if (refusal) await forgetAttempt(sql, counted)
  return refusal
}

async function refusalOf(sql: Sql, knownKey: string, fromSource: number, onAccount: number, pair: number): Promise<string | null> {
  if (fromSource >= LIMITS.sourceFailures) return TOO_MANY_FROM_SOURCE
  if (onAccount < LIMITS.accountGuard) return null
  const known = (await attemptCount(sql, knownKey)) > 0
  if (known) return pair < LIMITS.accountGuard ? null : TOO_MANY_FOR_ACCOUNT
  return pair === 0 && onAccount < LIMITS.knownSourcesOnly ? null : TOO_MANY_FOR_ACCOUNT
}

/** Takes back a try that was neither a wrong password nor a sign-in (an account that signs in otherwise). */
export async function credentialNotCounted(sql: Sql, email: string, source: string): Promise<void> {
  const k = keys(email, source)
  await forgetAttempt(sql, [k.source, k.account, k.pair])
}

/** The source is remembered as one this account signs in from; its own failures on the account are forgiven. */
export async function credentialSucceeded(sql: Sql, email: string, source: string): Promise<void> {
  const k = keys(email, source)
  await forgetAttempt(sql, [k.source, k.account])
  await clearAttempts(sql, [k.pair, k.known])
  await recordAttempt(sql, [k.known], KNOWN_SOURCE_MS)
}

/** Counts a Google sign-in from a source (before its token is checked); false once the source is over its limit. */
export async function oauthSourceAllowed(sql: Sql, source: string): Promise<boolean> {
  const [count] = await recordAttempt(sql, [`oauth-src:${source}`], OAUTH_WINDOW_MS)
  return count <= LIMITS.oauthPerSource
}

/** Counts a verified Google sign-in into an account; false once the account is over its limit. */
export async function oauthAccountAllowed(sql: Sql, subject: string): Promise<boolean> {
  const [count] = await recordAttempt(sql, [`oauth-acct:${subject}`], OAUTH_WINDOW_MS)
  return count <= LIMITS.oauthPerAccount
}

/** Counts a password-reset request; false when no mail should go out for it. */
export async function resetMailAllowed(sql: Sql, email: string, source: string): Promise<boolean> {
  const [toAccount, fromSource] = await recordAttempt(sql, [`reset-acct:${email}`, `reset-src:${source}`], WINDOW_MS)
  return toAccount <= LIMITS.resetPerAccount && fromSource <= LIMITS.resetPerSource
}
