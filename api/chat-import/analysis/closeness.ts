// How close the person seems to someone they chat with, 1 (distant) to 5 (intimate), from the chats alone.

export interface ClosenessInput {
  /** Messages the other person wrote. */
  sent: number
  /** Messages the user wrote to them: all of theirs in a one-to-one chat, their direct replies in a group. */
  received: number
  /** Days from their last exchange to the newest message of the import. */
  daysSinceLast: number
}

/** Two thousand messages back and forth is as much as volume can say. */
const VOLUME_CEILING = 2000
/** After this many quiet days a relationship counts about a third as recent. */
const RECENCY_DAYS = 90

/**
 * A weighted score of volume (on a log scale: the first hundred messages say more than the next thousand),
 * recency and reciprocity (both sides writing about as much), mapped onto 1 to 5.
 */
export function closeness({ sent, received, daysSinceLast }: ClosenessInput): number {
  const total = Math.max(0, sent) + Math.max(0, received)
  const volume = Math.min(1, Math.log10(1 + total) / Math.log10(1 + VOLUME_CEILING))
  const recency = Math.exp(-Math.max(0, daysSinceLast) / RECENCY_DAYS)
  const reciprocity = sent > 0 && received > 0 ? Math.min(sent, received) / Math.max(sent, received) : 0
  const score = 0.5 * volume + 0.25 * recency + 0.25 * reciprocity
  return Math.min(5, Math.max(1, 1 + Math.round(score * 4)))
}
