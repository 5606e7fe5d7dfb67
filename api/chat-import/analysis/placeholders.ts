// Messages that stand for something other than words the person typed: media, stickers, calls, deletions.
// They count as messages (spec fixtures) but say nothing about how someone writes.
import { isIosPlaceholder } from '../whatsAppNotices'

// LINE writes every kind of media as one bracketed word in the UI language: [Sticker], [照片], [スタンプ] …
const LINE_MEDIA = /^\[[^\]\n]{1,24}\]$/u
// LINE desktop's plural media words.
const LINE_DESKTOP_MEDIA = new Set(['Stickers', 'Photos', 'Videos', 'Files'])
// Android WhatsApp: "<Media omitted>" in any language, and attachments exported with media.
const ANGLE_BRACKETED = /^<[^>\n]+>$/u
const FILE_ATTACHED = /\((?:file attached|Datei angehängt)\)/u

export function isPlaceholder(text: string): boolean {
  const t = text.trim()
  return (
    t === '' ||
    t.startsWith('☎') ||
    LINE_MEDIA.test(t) ||
    LINE_DESKTOP_MEDIA.has(t) ||
    ANGLE_BRACKETED.test(t) ||
    FILE_ATTACHED.test(t) ||
    isIosPlaceholder(t, 0, t.length)
  )
}
