// The free allowance as the chat shows it (spec §4 "Message limit"): the strip at 5 or fewer left, the wrap at 0.
import type { Allowance } from './types'

export const LOW_MESSAGE_WARNING = 5

export const messagesLeft = (a: Allowance) => Math.max(0, a.limit - a.count)

export function limitState(a: Allowance, premium: boolean): 'unlimited' | 'plenty' | 'low' | 'none' {
  if (premium) return 'unlimited'
  const left = messagesLeft(a)
  if (left === 0) return 'none'
  return left <= LOW_MESSAGE_WARNING ? 'low' : 'plenty'
}
