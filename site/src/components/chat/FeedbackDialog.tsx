// Feedback on a reply (spec §8 "Chat"): "Real talk — how'd that land for you?".
import { useState } from 'react'
import { toast } from '../../lib/toast'
import { Dialog } from '../Dialog'
import { t } from '../../lib/clientI18n'
import { api, ApiError } from '../../lib/api'

export function FeedbackDialog({ messageId, version, onClose }: { messageId: string | null; version?: number; onClose: () => void }) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(false)
  const close = () => {
    setText('')
    setSent(false)
    onClose()
  }
  async function submit() {
    if (!messageId || !text.trim()) return
    setBusy(true)
    try {
      await api('/feedbacks/bot-response-message', { body: { messageId, feedbackText: text.trim(), ...(version ? { version } : {}) }, silent: true })
      setSent(true)
    } catch (e) {
      toast.error(t('chat.feedbackFailed', { message: e instanceof ApiError ? e.message : String(e) }))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={messageId !== null}
      onOpenChange={(open) => !open && close()}
      title={sent ? t('chat.feedbackThanks') : t('chat.feedbackTitle')}
      actions={
        sent ? (
          <button type="button" className="btn" onClick={close}>{t('chat.keepChatting')}</button>
        ) : (
          <>
            <button type="button" className="btn btn-ghost" onClick={close}>{t('chat.neverMind')}</button>
            <button type="button" className="btn" disabled={!text.trim() || busy} onClick={submit}>{t('chat.sendThoughts')}</button>
          </>
        )
      }
    >
      {!sent && (
        <label className="field" htmlFor="feedback-text">
          <span>{t('chat.feedbackLabel')}</span>
          <textarea id="feedback-text" rows={4} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
      )}
    </Dialog>
  )
}
