// The messages of the chat room and what changes them without the person doing anything (spec §4): the
// character's readiness, the Ideal Self's hello in an empty conversation, a reply the page did not see finish,
// and older messages 15 at a time when the top of the list comes into view.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { Allowance, ChatMessage } from './types'
import { api, ApiError } from '../../lib/api'
import { showAlert } from '../../lib/alertDialog'
import { t } from '../../lib/clientI18n'
import { followReply, SendError } from './sendTurn'

export const PAGE_SIZE = 15
const BOT_TYPING_MS = 25
const POLL_MS = 2000
const READY_POLL_MS = 3000

interface Options {
  conversationId: string
  characterId: string
  initialMessages: ChatMessage[]
  total: number
  characterReady: boolean
  premium: boolean
  /** The browser reads streamed responses (and the page was not opened with ?sse=false). */
  streaming: boolean
  currentDateTime: () => string
  setAllowance: (update: (a: Allowance) => Allowance) => void
}

export function useConversation(o: Options) {
  const [messages, setMessages] = useState<ChatMessage[]>(o.initialMessages)
  const [hasMore, setHasMore] = useState(o.total > o.initialMessages.length)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [ready, setReady] = useState(o.characterReady)
  // An empty conversation opens with the hello being written, so the input starts disabled instead of flickering.
  const [answering, setAnswering] = useState(o.characterReady && o.initialMessages.length === 0)
  const [pollId, setPollId] = useState<string | null>(null)
  const scroller = useRef<HTMLDivElement>(null)
  const topSentinel = useRef<HTMLLIElement>(null)
  const keepScroll = useRef<number | null>(null)
  const stickToBottom = useRef(true)

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
        const c = await api<{ isReady: boolean }>(`/chatbots/characters/${o.characterId}`, { query: { selectIsReady: true }, silent: true })
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
    api<{ newChatbotMessage: ChatMessage }>(`/chatbots/conversations/${o.conversationId}/character/${o.characterId}/hello`, {
      query: { currentDateTime: o.currentDateTime() },
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
      if (!o.premium) o.setAllowance((a) => ({ ...a, count: Math.max(0, a.count - 1) }))
      void showAlert(t('chat.errorTitle'), t('chat.noResponse'))
    }
    const poll = async () => {
      try {
        const m = await api<{ text: string; help: string | null; sources: ChatMessage['sources']; version: number }>(`/chatbots/conversations/${o.conversationId}/messages/${pollId}`, { silent: true })
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
      if (o.streaming) {
        try {
          const whole = await followReply(
            o.conversationId,
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
        const page = await api<{ messages: ChatMessage[]; total: number }>(`/chatbots/conversations/${o.conversationId}`, {
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

  return {
    messages,
    setMessages,
    hasMore,
    setHasMore,
    loadingOlder,
    ready,
    answering,
    setAnswering,
    poll: setPollId,
    typeOut,
    scroller,
    topSentinel,
    stickToBottom,
  }
}
