/**
 * Phrase lists that decide whether a WhatsApp record is a system notice.
 *
 * Newer iOS exports attribute notices to the group or contact name and start the text with
 * LRM, but they also start media, deletion and call placeholders with LRM; those placeholders
 * are things a person sent, so they stay messages.
 */

/** Placeholders whose text (after the LRM) ends with these words, e.g. "image omitted", "圖片已略去". */
const PLACEHOLDER_ENDINGS = ['omitted', '已略去']

/** Placeholders recognised by how they start; "<" covers "<attached: …>", "<附件：…>", "<已附加:…>". */
const PLACEHOLDER_OPENINGS = [
  '<',
  'This message was deleted',
  'You deleted this message',
  'Missed voice call',
  'Missed video call',
  'Missed group voice call',
  'Missed group video call',
  'Voice call',
  'Video call',
  'Location: ',
]

/** `text[start, end)` is the body after its leading LRM(s). */
export function isIosPlaceholder(text: string, start: number, end: number): boolean {
  for (const ending of PLACEHOLDER_ENDINGS) if (text.endsWith(ending, end)) return true
  for (const opening of PLACEHOLDER_OPENINGS) if (text.startsWith(opening, start)) return true
  return false
}

/**
 * Openings of the end-to-end encryption notice; only consulted when the part before ": "
 * is too long to be a name, because a notice may itself contain ": ".
 */
const ENCRYPTION_NOTICES = [
  'Messages and calls are end-to-end encrypted',
  '消息和通话已进行端到端加密',
  '訊息與通話已受端對端加密保護',
  'Los mensajes y las llamadas están cifrados de extremo a extremo',
  'Mesajlar ve aramalar uçtan uca şifrelidir',
]

export function isEncryptionNotice(text: string, start: number): boolean {
  for (const notice of ENCRYPTION_NOTICES) if (text.startsWith(notice, start)) return true
  return false
}
