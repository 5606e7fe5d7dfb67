// The chat room (spec §2 "Chat room", §4 "Chat send", "Message limit", "File upload in chat", §5, §8 "Chat").
// The messages and their background updates live in useConversation, sending in useSend, the bar in ChatHeader.
import { Fragment, useEffect, useRef, useState } from 'react'
import { format } from 'date-fns'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Dialog } from '../components/Dialog'
import { MessageBubble } from '../components/chat/MessageBubble'
import { Composer } from '../components/chat/Composer'
import { FeedbackDialog } from '../components/chat/FeedbackDialog'
import { ChatHeader } from '../components/chat/ChatHeader'
import { useConversation } from '../components/chat/useConversation'
import { useSend } from '../components/chat/useSend'
import { useLocationSharing } from '../components/chat/useLocationSharing'
import { useKeyboardAware } from '../components/chat/useKeyboardAware'
import { useRevise } from '../components/chat/useRevise'
import { limitState, messagesLeft } from '../components/chat/limits'
import type { Allowance, ChatMessage } from '../components/chat/types'
import { useT } from '../lib/reactI18n'
import { showAlert } from '../lib/alertDialog'
import { track } from '../lib/analytics'
import { DATE_FORMATS, formatInZone } from '../lib/dates'

export { PAGE_SIZE } from '../components/chat/useConversation'

interface Props {
  conversationId: string
  characterId: string
  initialMessages: ChatMessage[]
  total: number
  characterReady: boolean
  relationsReady: boolean
  allowance: Allowance
  premium: boolean
  staff: boolean
  geoLocation: { latitude: number; longitude: number } | null
  offlineModel: boolean
}

const clientDateTime = () => format(new Date(), DATE_FORMATS.chatTime)
const dayKey = (iso: string) => formatInZone(iso, 'yyyy-MM-dd')

/**
 * Replies stream unless the room was opened with ?sse=false (for networks that hold back streamed responses) or
 * the browser cannot read a response as it arrives; then each reply comes as plain JSON.
 */
const wantsStream = () =>
  new URLSearchParams(location.search).get('sse') !== 'false' && typeof ReadableStream !== 'undefined' && 'body' in Response.prototype

function Room(props: Props) {
  const t = useT()
  const [allowance, setAllowance] = useState(props.allowance)
  const [wrapOpen, setWrapOpen] = useState(false)
  const [wrapSeen, setWrapSeen] = useState(false)
  const [feedbackFor, setFeedbackFor] = useState<{ id: string; version: number } | null>(null)
  const [streaming, setStreaming] = useState(true)
  useEffect(() => setStreaming(wantsStream()), [])
  const location = useLocationSharing()
  const state = limitState(allowance, props.premium)
  const chat = useConversation({ ...props, streaming, currentDateTime: clientDateTime, setAllowance })
  const { messages, setMessages } = chat
  const room = useRef<HTMLDivElement>(null)
  useKeyboardAware(room, chat.scroller, chat.stickToBottom)

  // The free allowance at 0: the wrap dialog once, then the renewal strip (spec §4 "Message limit").
  useEffect(() => {
    if (state === 'none' && !wrapSeen) {
      setWrapOpen(true)
      setWrapSeen(true)
      track('daily_message_limit_dialog_display')
    }
  }, [state])

  const send = useSend({
    conversationId: props.conversationId,
    characterId: props.characterId,
    premium: props.premium,
    canSend: !chat.answering && state !== 'none',
    streaming,
    currentDateTime: clientDateTime,
    geoLocation: location.position,
    stickToBottom: chat.stickToBottom,
    setMessages,
    setAllowance,
    setAnswering: chat.setAnswering,
    poll: chat.poll,
    typeOut: chat.typeOut,
  })

  const revise = useRevise({
    conversationId: props.conversationId,
    characterId: props.characterId,
    premium: props.premium,
    currentDateTime: clientDateTime,
    setMessages,
    setAllowance,
    setAnswering: chat.setAnswering,
    fail: (code, message) =>
      showAlert(t('chat.errorTitle'), code === 'BotResponseFailureException' ? t('chat.noResponse') : t('chat.otherError', { message })),
  })
  // The last turn can be tried again: its reply regenerated, its question edited and resent.
  const [lastQuestion, lastReply] = messages.slice(-2)
  const revisable =
    !chat.answering && state !== 'none' && lastQuestion?.role === 'USER' && lastReply?.role === 'ASSISTANT' && !!lastReply.text && !lastReply.pending &&
    !lastReply.id.startsWith('local-')

  const left = messagesLeft(allowance)
  const roomPath = `/app/conversations/${props.conversationId}/character/${props.characterId}`
  let lastDay = ''
  return (
    <div className="chat" ref={room}>
      <ChatHeader
        characterId={props.characterId}
        relationsReady={props.relationsReady}
        roomPath={roomPath}
        devTool={
          props.staff
            ? {
                characterId: props.characterId,
                conversationId: props.conversationId,
                geoLocation: props.geoLocation,
                shareLocation: location.sharing,
                onShareLocation: location.setSharing,
                onMessagesDeleted: () => {
                  setMessages([])
                  chat.setHasMore(false)
                },
                lastReplySources: messages.findLast((m) => m.role === 'ASSISTANT')?.sources ?? null,
              }
            : null
        }
      />

      <div
        className="chat-scroll"
        ref={chat.scroller}
        onScroll={(e) => {
          const el = e.currentTarget
          chat.stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80
        }}
      >
        {!chat.ready ? (
          <div className="training" role="status">
            <div className="spinner" />
            <h2>{t('chat.training')}</h2>
            <p className="muted">{t('chat.trainingText')}</p>
          </div>
        ) : (
          <ol className="messages" aria-live="polite" aria-relevant="additions">
            {chat.hasMore && <li ref={chat.topSentinel} className="older">{chat.loadingOlder ? t('chat.loadingOlder') : ''}</li>}
            {messages.map((m) => {
              const day = dayKey(m.createdAt)
              const divider = day !== lastDay
              lastDay = day
              return (
                <Fragment key={m.id}>
                  {divider && <li className="day-divider"><time dateTime={m.createdAt}>{formatInZone(m.createdAt, DATE_FORMATS.dayDivider)}</time></li>}
                  <MessageBubble
                    message={m}
                    conversationId={props.conversationId}
                    onFeedback={(msg, version) => setFeedbackFor({ id: msg.id, version })}
                    onRegenerate={revisable && m === lastReply ? () => revise.regenerate(lastQuestion, lastReply) : undefined}
                    onEdit={revisable && m === lastQuestion ? (text) => revise.edit(lastQuestion, lastReply, text) : undefined}
                  />
                </Fragment>
              )
            })}
          </ol>
        )}
      </div>

      <footer className="chat-footer">
        {props.offlineModel && <p className="offline-note">{t('chat.offlineModel')}</p>}
        {state === 'low' && <p className="limit-strip" role="status">{t('chat.messagesLeft', { count: left })}</p>}
        {state === 'none' && !wrapOpen && (
          <p className="limit-strip" role="status">
            {t('chat.renews', { date: formatInZone(allowance.resetAt, DATE_FORMATS.subscriptionExpiry) })}{' '}
            <a href="/app/settings/subscription">{t('chat.getMore')}</a>
          </p>
        )}
        <Composer conversationId={props.conversationId} limitReached={state === 'none'} disabled={!chat.ready || chat.answering || state === 'none'} onSend={send} />
      </footer>

      <Dialog
        open={wrapOpen}
        onOpenChange={setWrapOpen}
        title={t('chat.wrapTitle')}
        description={t('chat.wrapText')}
        actions={
          <>
            <button type="button" className="btn btn-ghost" onClick={() => setWrapOpen(false)}>{t('chat.close')}</button>
            <a className="btn" href="/app/settings/subscription">{t('chat.upgrade')}</a>
          </>
        }
      />
      <FeedbackDialog messageId={feedbackFor?.id ?? null} version={feedbackFor?.version} onClose={() => setFeedbackFor(null)} />
    </div>
  )
}

export default function ChatRoom(props: Props) {
  return (
    <ErrorBoundary>
      <Room {...props} />
    </ErrorBoundary>
  )
}
