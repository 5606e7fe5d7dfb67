// Half-typed chat messages, kept per conversation on this device so that a reload, a lost session or a closed
// tab loses nothing. Signing out or deleting the account removes them (the device may be shared).
const PREFIX = 'chatDraft:'

export function readDraft(conversationId: string): string {
  try {
    return localStorage.getItem(PREFIX + conversationId) ?? ''
  } catch {
    return ''
  }
}

export function saveDraft(conversationId: string, text: string) {
  try {
    if (text) localStorage.setItem(PREFIX + conversationId, text)
    else localStorage.removeItem(PREFIX + conversationId)
  } catch {
    // Storage full or blocked (private mode): the draft lives only as long as the page.
  }
}

export function clearDrafts() {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key)
  } catch {}
}
