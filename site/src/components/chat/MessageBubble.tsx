import { renderMarkdown } from '../../lib/markdown'
import { t } from '../../lib/clientI18n'
import type { ChatMessage } from './types'
import { ChatImage } from './ChatImage'

export function MessageBubble({ message, onFeedback }: { message: ChatMessage; onFeedback?: (m: ChatMessage) => void }) {
  const mine = message.role === 'USER'
  const writing = !mine && !message.text
  // The help block of a crisis reply is its own card, above the companion's words.
  const help = !mine && message.help && message.text.startsWith(message.help) ? message.help : null
  const body = help ? message.text.slice(help.length).trim() : message.text
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
      {writing ? (
        <p className="typing" aria-live="polite"><span className="dot" /><span className="dot" /><span className="dot" /><span className="sr-only">{t('chat.thinking')}</span></p>
      ) : mine ? (
        message.text && <p className="msg-text">{message.text}</p>
      ) : (
        <>
          {help && (
            <div className="help-card md" role="note" aria-label={t('help.cardLabel')} data-testid="help-block" dangerouslySetInnerHTML={{ __html: renderMarkdown(help) }} />
          )}
          {body && <div className="msg-text md" dangerouslySetInnerHTML={{ __html: renderMarkdown(body) }} />}
        </>
      )}
      {!mine && !writing && !message.pending && onFeedback && (
        <button type="button" className="feedback-btn" onClick={() => onFeedback(message)}>{t('chat.feedback')}</button>
      )}
    </li>
  )
}
