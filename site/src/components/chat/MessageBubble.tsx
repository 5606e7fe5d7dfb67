import { useEffect, useState } from 'react'
import { useMarkdown } from '../../lib/markdownLater'
import { t } from '../../lib/clientI18n'
import { api } from '../../lib/api'
import { ReplySources } from './ReplySources'
import { ChatImage } from './ChatImage'
import type { ChatMessage, ReplySources as Sources } from './types'

interface Version {
  version: number
  text: string
  help: string | null
  sources: Sources | null
}

interface Props {
  message: ChatMessage
  conversationId?: string
  /** Feedback on the version being read. */
  onFeedback?: (m: ChatMessage, version: number) => void
  /** Set on the last reply while nothing is being written. */
  onRegenerate?: () => void
  /** Set on the person's last message while nothing is being written. */
  onEdit?: (text: string) => void
}

export function MessageBubble({ message, conversationId, onFeedback, onRegenerate, onEdit }: Props) {
  const mine = message.role === 'USER'
  const writing = !mine && !message.text
  const current = message.version ?? 1
  // Earlier versions of a regenerated reply, fetched when the person first steps back.
  const [versions, setVersions] = useState<Version[] | null>(null)
  const [shown, setShown] = useState(current)
  const [editing, setEditing] = useState<string | null>(null)
  useEffect(() => {
    setShown(current)
    setVersions(null)
  }, [current])

  async function step(to: number) {
    if (!versions && conversationId) {
      const { versions: all } = await api<{ versions: Version[] }>(`/chatbots/conversations/${conversationId}/messages/${message.id}/versions`, { silent: true })
      setVersions(all)
    }
    setShown(to)
  }

  const browsing = shown !== current ? versions?.find((v) => v.version === shown) : undefined
  const text = browsing?.text ?? message.text
  const sources = browsing ? browsing.sources : message.sources
  // The help block of a crisis reply is its own card, above the companion's words.
  const helpText = browsing ? browsing.help : message.help
  const help = !mine && helpText && text.startsWith(helpText) ? helpText : null
  const body = help ? text.slice(help.length).trim() : text
  const renderMarkdown = useMarkdown(!mine && !!text)

  return (
    <li className={mine ? 'msg msg-user' : 'msg msg-bot'} data-message-id={message.id} data-role={message.role}>
      <span className="sr-only">{mine ? t('chat.you') : t('chat.idealSelf')}:</span>
      {message.files.length > 0 && (
        <div className="msg-files">
          {message.files.map((f) => (
            <ChatImage key={f.id} file={f} />
          ))}
        </div>
      )}
      {editing !== null ? (
        <form
          className="msg-edit"
          onSubmit={(e) => {
            e.preventDefault()
            if (!editing.trim()) return
            onEdit?.(editing.trim())
            setEditing(null)
          }}
        >
          <label className="sr-only" htmlFor={`edit-${message.id}`}>{t('chat.editLabel')}</label>
          <textarea id={`edit-${message.id}`} rows={3} maxLength={4000} value={editing} autoFocus onChange={(e) => setEditing(e.target.value)} />
          <div className="msg-tools">
            <button type="button" className="link-btn" onClick={() => setEditing(null)}>{t('chat.cancelEdit')}</button>
            <button type="submit" className="btn btn-small" disabled={!editing.trim() || editing.trim() === message.text}>{t('chat.resend')}</button>
          </div>
        </form>
      ) : writing ? (
        <p className="typing" aria-live="polite"><span className="dot" /><span className="dot" /><span className="dot" /><span className="sr-only">{t('chat.thinking')}</span></p>
      ) : mine ? (
        text && <p className="msg-text">{text}</p>
      ) : (
        <>
          {help && (
            <div className="help-card md" role="note" aria-label={t('help.cardLabel')} data-testid="help-block" dangerouslySetInnerHTML={{ __html: renderMarkdown(help) }} />
          )}
          {body && <div className="msg-text md" dangerouslySetInnerHTML={{ __html: renderMarkdown(body) }} />}
        </>
      )}
      {!mine && !writing && !message.pending && <ReplySources sources={sources} />}
      {!writing && !message.pending && editing === null && (
        <div className="msg-tools">
          {!mine && current > 1 && (
            <span className="versions">
              <button type="button" className="link-btn" disabled={shown <= 1} onClick={() => step(shown - 1)} aria-label={t('chat.previousVersion')}>‹</button>
              <span aria-live="polite">{t('chat.versionOf', { version: shown, count: current })}</span>
              <button type="button" className="link-btn" disabled={shown >= current} onClick={() => step(shown + 1)} aria-label={t('chat.nextVersion')}>›</button>
            </span>
          )}
          {!mine && onRegenerate && <button type="button" className="link-btn" onClick={onRegenerate}>{t('chat.regenerate')}</button>}
          {mine && onEdit && <button type="button" className="link-btn" onClick={() => setEditing(message.text)}>{t('chat.editMessage')}</button>}
          {!mine && onFeedback && (
            <button type="button" className="feedback-btn" onClick={() => onFeedback(message, shown)}>{t('chat.feedback')}</button>
          )}
        </div>
      )}
    </li>
  )
}
