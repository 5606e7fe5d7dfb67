// The limits on what onboarding asks for (spec §7 training-data and characters bodies), counted in characters as
// people see them, after trimming.
import { badRequest } from '../http/errors'

export const USER_NAME_MAX = 50
export const DESCRIPTION_MAX = 1000
export const STORY_ANSWER_MAX = 2000

/** `value` trimmed, or a 400 naming `field` when it is empty or longer than `max` characters. */
export function requiredText(value: string, field: string, max: number): string {
  const text = value.trim()
  if (!text) throw badRequest(`${field} is required`)
  if (Array.from(text).length > max) throw badRequest(`${field} must be at most ${max} characters`)
  return text
}
