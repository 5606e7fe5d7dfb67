// The chat room (spec §2 "Chat room", §4 "Chat send", "Message limit", "File upload in chat", §5, §8 "Chat").
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { format } from 'date-fns'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Dialog } from '../components/Dialog'
import { Icon } from '../components/Icon'
import { MessageBubble } from '../components/chat/MessageBubble'
import { Composer, type Attachment } from '../components/chat/Composer'
import { FeedbackDialog } from '../components/chat/FeedbackDialog'
import { CharacterDevTool } from '../components/chat/CharacterDevTool'
import { GetHelpButton } from '../components/safety/GetHelpButton'
import { browserTimeZone } from '../lib/timeZone'
import { useRevise } from '../components/chat/useRevise'
import { limitState, messagesLeft } from '../components/chat/limits'
import type { Allowance, ChatMessage } from '../components/chat/types'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { showAlert } from '../lib/alertDialog'
import { track } from '../lib/analytics'
import { followReply, sendTurn, SendError } from '../components/chat/sendTurn'
import { DATE_FORMATS, formatInZone } from '../lib/dates'

export const PAGE_SIZE = 15
const BOT_TYPING_MS = 25
const POLL_MS = 2000
const READY_POLL_MS = 3000
const GEO_REFRESH_MS = 5 * 60 * 1000

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
  const [messages, setMessages] = useState<ChatMessage[]>(props.initialMessages)
  const [hasMore, setHasMore] = useState(props.total > props.initialMessages.length)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [ready, setReady] = useState(props.characterReady)
  const [allowance, setAllowance] = useState(props.allowance)
  const [answering, setAnswering] = useState(false)
  const [pollId, setPollId] = useState<string | null>(null)
  const [wrapOpen, setWrapOpen] = useState(false)
  const [wrapSeen, setWrapSeen] = useState(false)
  const [feedbackFor, setFeedbackFor] = useState<{ id: string; version: number } | null>(null)
  const [shareLocation, setShareLocation] = useState(false)
  useEffect(() => setShareLocation(localStorage.getItem('shareLocation') === 'true'), [])
  const geo = useRef<{ latitude: number; longitude: number } | null>(null)
  const scroller = useRef<HTMLDivElement>(null)
  const topSentinel = useRef<HTMLLIElement>(null)
  const keepScroll = useRef<number | null>(null)
  const stickToBottom = useRef(true)
  const localSeq = useRef(0)
  const [streaming, setStreaming] = useState(true)
  useEffect(() => setStreaming(wantsStream()), [])
  const state = limitState(allowance, props.premium)

  // Stay at the bottom as replies grow, unless older messages were just put on top.
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    if (keepScroll.current !== null) {
      el.scrollTop = el.scrollHeight - keepScroll.current
      keepScroll.current = null
    } else if (stickToBottom.current) el.scrollTop = el.scrollHeight
  }, [messages])

  const replace = useCallback((id: string, patch: Partial<ChatMessage>) => setMessages((list) => list.map((m) => (m.id === id ? { ...m, ...patch } : m))), [])

  function typeOut(id: string, text: string) {
    const chars = Array.from(text)
    let shown = 0
    replace(id, { text: '', pending: true })
    return new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        shown = Math.min(chars.length, shown + 1)
        replace(id, { text: chars.slice(0, shown).join(''), pending: shown < chars.length })
        if (shown >= chars.length) {
          clearInterval(timer)
          resolve()
        }
      }, BOT_TYPING_MS)
    })
  }

  // Character readiness (spec §4): re-poll every 3 s; a 404 means it is gone.
  useEffect(() => {
    if (ready) return
    const timer = setInterval(async () => {
      try {
        const c = await api<{ isReady: boolean }>(`/chatbots/characters/${props.characterId}`, { query: { selectIsReady: true }, silent: true })
        if (c.isReady) setReady(true)
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) location.assign('/app/select-character')
      }
    }, READY_POLL_MS)
    return () => clearInterval(timer)
  }, [ready])

  // An empty conversation starts with the Ideal Self's hello, typed out.
  useEffect(() => {
    if (!ready || messages.length > 0) return
    let cancelled = false
    setAnswering(true)
    api<{ newChatbotMessage: ChatMessage }>(`/chatbots/conversations/${props.conversationId}/character/${props.characterId}/hello`, {
      query: { currentDateTime: clientDateTime() },
      silent: true,
    })
      .then(async ({ newChatbotMessage }) => {
        if (cancelled) return
        setMessages([{ ...newChatbotMessage, files: newChatbotMessage.files ?? [], text: '' }])
        await typeOut(newChatbotMessage.id, newChatbotMessage.text)
      })
      .catch((e) => !cancelled && showAlert(t('chat.errorTitle'), e instanceof ApiError ? `${e.code}: ${e.message}` : String(e)))
      .finally(() => !cancelled && setAnswering(false))
    return () => {
      cancelled = true
    }
  }, [ready])

  // A reply the page did not see finish (reload mid-reply, dropped stream) is followed until it has text (spec §4 step 4).
  useEffect(() => {
    const last = messages.at(-1)
    if (!answering && last?.role === 'ASSISTANT' && !last.text && !last.id.startsWith('local-')) setPollId(last.id)
  }, [messages, answering])
  useEffect(() => {
    if (!pollId) return
    // The reply failed and was removed with the message it answered (a model failure, or a server that
    // stopped while writing it): the same failure state as a send that fails (spec §8 Chat).
    const failed = () => {
      setPollId(null)
      setMessages((list) => {
        const at = list.findIndex((x) => x.id === pollId)
        const question = at > 0 && list[at - 1].role === 'USER' ? list[at - 1].id : null
        return list.filter((x) => x.id !== pollId && x.id !== question)
      })
      if (!props.premium) setAllowance((a) => ({ ...a, count: Math.max(0, a.count - 1) }))
      void showAlert(t('chat.errorTitle'), t('chat.noResponse'))
    }
    const poll = async () => {
      try {
        const m = await api<{ text: string; help: string | null; sources: ChatMessage['sources']; version: number }>(`/chatbots/conversations/${props.conversationId}/messages/${pollId}`, { silent: true })
        if (m.text) {
          replace(pollId, { text: m.text, help: m.help, sources: m.sources, version: m.version, pending: false })
          setPollId(null)
        }
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) failed()
      }
    }
    const leave = new AbortController()
    let timer: ReturnType<typeof setInterval> | undefined
    void (async () => {
      // Where streams can be read, the reply goes on streaming from whichever instance answers; polling is the fallback.
      if (streaming) {
        try {
          const whole = await followReply(
            props.conversationId,
            pollId,
            {
              restart: () => replace(pollId, { text: '', help: null, pending: true }),
              help: (block) => replace(pollId, { help: block, text: `${block}\n\n` }),
              delta: (piece) => setMessages((list) => list.map((m) => (m.id === pollId ? { ...m, text: m.text + piece } : m))),
            },
            leave.signal,
          )
          if (whole) {
            replace(pollId, { text: whole.text, help: whole.help, pending: false })
            setPollId(null)
            return
          }
        } catch (e) {
          if (leave.signal.aborted) return
          if (e instanceof SendError && (e.code === 'BotResponseFailureException' || e.status === 404)) return failed()
        }
      }
      if (!leave.signal.aborted) timer = setInterval(poll, POLL_MS)
    })()
    return () => {
      leave.abort()
      clearInterval(timer)
    }
  }, [pollId])

  // Older messages, 15 at a time, when the top comes into view; the reading position stays put.
  useEffect(() => {
    const el = topSentinel.current
    if (!el || !hasMore) return
    const observer = new IntersectionObserver(async ([entry]) => {
      if (!entry.isIntersecting || loadingOlder) return
      setLoadingOlder(true)
      try {
        const known = messages.filter((m) => !m.id.startsWith('local-')).length
        const page = await api<{ messages: ChatMessage[]; total: number }>(`/chatbots/conversations/${props.conversationId}`, {
          query: { messageLimit: PAGE_SIZE, messageOffset: known, messageDirection: 'desc' },
          silent: true,
        })
        keepScroll.current = scroller.current ? scroller.current.scrollHeight - scroller.current.scrollTop : null
        setMessages((list) => {
          const ids = new Set(list.map((m) => m.id))
          return [...page.messages.filter((m) => !ids.has(m.id)).reverse(), ...list]
        })
        setHasMore(known + page.messages.length < page.total)
      } catch {
        window.alert(t('chat.olderFailed'))
      } finally {
        setLoadingOlder(false)
      }
    }, { root: scroller.current, rootMargin: '200px 0px 0px 0px' })
    observer.observe(el)
    return () => observer.disconnect()
  }, [hasMore, loadingOlder, messages])

  // The free allowance at 0: the wrap dialog once, then the renewal strip (spec §4 "Message limit").
  useEffect(() => {
    if (state === 'none' && !wrapSeen) {
      setWrapOpen(true)
      setWrapSeen(true)
      track('daily_message_limit_dialog_display')
    }
  }, [state])

  // Location sharing is off by default; when on: high accuracy, 5 s timeout, refreshed every 5 minutes.
  useEffect(() => {
    localStorage.setItem('shareLocation', String(shareLocation))
    if (!shareLocation || !navigator.geolocation) return
    const read = () =>
      navigator.geolocation.getCurrentPosition(
        ({ coords }) => {
          geo.current = { latitude: coords.latitude, longitude: coords.longitude }
          void api('/self/geo-location', { method: 'PUT', body: geo.current, silent: true }).catch(() => {})
        },
        () => {},
        { enableHighAccuracy: true, timeout: 5000 },
      )
    read()
    const timer = setInterval(read, GEO_REFRESH_MS)
    return () => clearInterval(timer)
  }, [shareLocation])

  async function send(text: string, files: Attachment[]): Promise<boolean> {
    if (answering || state === 'none') return false
    const n = ++localSeq.current
    const userLocal = `local-user-${n}`
    const botLocal = `local-bot-${n}`
    const now = new Date().toISOString()
    stickToBottom.current = true
    // The picked images show at once from their local previews; the bubble keeps them until the served files load.
    const previews = files.map((f) => ({ id: f.id!, mimeType: 'image/*', url: f.preview, preview: f.preview }))
    setMessages((list) => [
      ...list,
      { id: userLocal, role: 'USER', text, createdAt: now, files: previews, pending: true },
      { id: botLocal, role: 'ASSISTANT', text: '', createdAt: now, files: [], pending: true },
    ])
    if (!props.premium) setAllowance((a) => ({ ...a, count: a.count + 1 }))
    setAnswering(true)
    let botId: string | null = null
    let userId: string | null = null
    try {
      const finished = await sendTurn(
        {
          conversationId: props.conversationId,
          characterId: props.characterId,
          stream: streaming,
          body: {
            text,
            currentDateTime: clientDateTime(),
            files: files.map((f) => ({ id: f.id! })),
            // Where help lines are chosen for, should the message need them.
            timeZone: browserTimeZone(),
            ...(shareLocation && geo.current ? { geoLocation: geo.current } : {}),
          },
        },
        {
          started({ userMessage, botMessageId, messageLimit, sources }) {
            botId = botMessageId
            userId = userMessage.id
            const served = userMessage.files.map((f, i) => ({ ...f, preview: previews[i]?.preview }))
            setMessages((list) =>
              list.map((m) => (m.id === userLocal ? { ...m, id: userMessage.id, files: served, pending: false } : m.id === botLocal ? { ...m, id: botMessageId, sources } : m)),
            )
            if (messageLimit) setAllowance(messageLimit)
          },
          help(block) {
            // A message about suicide or self-harm: the help block shows before any word of the reply.
            setMessages((list) => list.map((m) => (m.id === botId ? { ...m, help: block, text: `${block}\n\n` } : m)))
          },
          delta(piece) {
            setMessages((list) => list.map((m) => (m.id === botId ? { ...m, text: m.text + piece } : m)))
          },
          async done(whole, streamed, help) {
            if (streamed) setMessages((list) => list.map((m) => (m.id === botId ? { ...m, text: whole, help, pending: false } : m)))
            else {
              setMessages((list) => list.map((m) => (m.id === botId ? { ...m, help } : m)))
              await typeOut(botId!, whole)
            }
          },
        },
      )
      if (!finished && botId) setPollId(botId)
      return true
    } catch (e) {
      if (botId && !(e instanceof SendError)) {
        // The connection dropped after the server took the message: the reply is still being saved, so poll it.
        setPollId(botId)
        return true
      }
      const gone = new Set([userLocal, botLocal, userId, botId])
      setMessages((list) => list.filter((m) => !gone.has(m.id)))
      if (!props.premium) setAllowance((a) => ({ ...a, count: Math.max(0, a.count - 1) }))
      const code = e instanceof SendError ? e.code : undefined
      await showAlert(
        t('chat.errorTitle'),
        code === 'BotResponseFailureException' ? t('chat.noResponse') : t('chat.otherError', { message: (e as Error).message }),
      )
      return false
    } finally {
      setAnswering(false)
    }
  }

  const revise = useRevise({
    conversationId: props.conversationId,
    characterId: props.characterId,
    premium: props.premium,
    currentDateTime: clientDateTime,
    setMessages,
    setAllowance,
    setAnswering,
    fail: (code, message) =>
      showAlert(t('chat.errorTitle'), code === 'BotResponseFailureException' ? t('chat.noResponse') : t('chat.otherError', { message })),
  })
  // The last turn can be tried again: its reply regenerated, its question edited and resent.
  const [lastQuestion, lastReply] = messages.slice(-2)
  const revisable =
    !answering && state !== 'none' && lastQuestion?.role === 'USER' && lastReply?.role === 'ASSISTANT' && !!lastReply.text && !lastReply.pending &&
    !lastReply.id.startsWith('local-')

  const left = messagesLeft(allowance)
  const roomPath = `/app/conversations/${props.conversationId}/character/${props.characterId}`
  let lastDay = ''
  return (
    <div className="chat">
      <header className="topbar chat-bar">
        <div className="side">
          <a className="icon-btn" href="/app/select-character" aria-label={t('chat.back')} data-testid="back"><Icon name="back" /></a>
        </div>
        <h1 className="title">{t('chat.title')}</h1>
        <div className="side end">
          <GetHelpButton />
          {props.relationsReady && (
            <a className="icon-btn" href={`/app/characters/${props.characterId}/relations/edit?from=${encodeURIComponent(roomPath)}`} aria-label={t('chat.relations')}>
              <Icon name="people" />
            </a>
          )}
          {props.staff && (
            <CharacterDevTool
              characterId={props.characterId}
              conversationId={props.conversationId}
              geoLocation={props.geoLocation}
              shareLocation={shareLocation}
              onShareLocation={setShareLocation}
              onMessagesDeleted={() => { setMessages([]); setHasMore(false) }}
              lastReplySources={messages.findLast((m) => m.role === 'ASSISTANT')?.sources ?? null}
            />
          )}
          <a className="icon-btn" href={`/app/settings?from=${encodeURIComponent(roomPath)}`} aria-label={t('common.settings')}><Icon name="gear" /></a>
        </div>
      </header>

      <div
        className="chat-scroll"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80
        }}
      >
        {!ready ? (
          <div className="training" role="status">
            <div className="spinner" />
            <h2>{t('chat.training')}</h2>
            <p className="muted">{t('chat.trainingText')}</p>
          </div>
        ) : (
          <ol className="messages" aria-live="polite" aria-relevant="additions">
            {hasMore && <li ref={topSentinel} className="older">{loadingOlder ? t('chat.loadingOlder') : ''}</li>}
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
        <Composer conversationId={props.conversationId} limitReached={state === 'none'} disabled={!ready || answering || state === 'none'} onSend={send} />
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
