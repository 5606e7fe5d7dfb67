// Sending a message (spec §4 "Chat send"): the person's bubble and an empty reply show at once, the reply streams
// in (or comes whole and is typed out), a dropped connection after the server took the message polls the reply,
// and any other failure takes the turn back, gives the allowance back and shows the error dialog of spec §8.
import { useRef, type MutableRefObject } from 'react'
import type { Attachment } from './Composer'
import type { Allowance, ChatMessage } from './types'
import { sendTurn, SendError } from './sendTurn'
import { browserTimeZone } from '../../lib/timeZone'
import { showAlert } from '../../lib/alertDialog'
import { t } from '../../lib/clientI18n'

interface Options {
  conversationId: string
  characterId: string
  premium: boolean
  /** Whether a message can go now (nothing being written, allowance left). */
  canSend: boolean
  streaming: boolean
  currentDateTime: () => string
  /** Where the person is, when they share it. */
  geoLocation: () => { latitude: number; longitude: number } | null
  stickToBottom: MutableRefObject<boolean>
  setMessages: (update: (list: ChatMessage[]) => ChatMessage[]) => void
  setAllowance: (update: Allowance | ((a: Allowance) => Allowance)) => void
  setAnswering: (on: boolean) => void
  /** Polls a reply the server goes on writing after the page lost the stream. */
  poll: (botId: string) => void
  typeOut: (id: string, text: string) => Promise<void>
}

export function useSend(o: Options) {
  const localSeq = useRef(0)

  return async function send(text: string, files: Attachment[]): Promise<boolean> {
    if (!o.canSend) return false
    const n = ++localSeq.current
    const userLocal = `local-user-${n}`
    const botLocal = `local-bot-${n}`
    const now = new Date().toISOString()
    o.stickToBottom.current = true
    // The picked images show at once from their local previews; the bubble keeps them until the served files load.
    const previews = files.map((f) => ({ id: f.id!, mimeType: 'image/*', url: f.preview, preview: f.preview }))
    o.setMessages((list) => [
      ...list,
      { id: userLocal, role: 'USER', text, createdAt: now, files: previews, pending: true },
      { id: botLocal, role: 'ASSISTANT', text: '', createdAt: now, files: [], pending: true },
    ])
    if (!o.premium) o.setAllowance((a) => ({ ...a, count: a.count + 1 }))
    o.setAnswering(true)
    let botId: string | null = null
    let userId: string | null = null
    const geo = o.geoLocation()
    try {
      const finished = await sendTurn(
        {
          conversationId: o.conversationId,
          characterId: o.characterId,
          stream: o.streaming,
          body: {
            text,
            currentDateTime: o.currentDateTime(),
            files: files.map((f) => ({ id: f.id! })),
            // Where help lines are chosen for, should the message need them.
            timeZone: browserTimeZone(),
            ...(geo ? { geoLocation: geo } : {}),
          },
        },
        {
          started({ userMessage, botMessageId, messageLimit, sources }) {
            botId = botMessageId
            userId = userMessage.id
            const served = userMessage.files.map((f, i) => ({ ...f, preview: previews[i]?.preview }))
            o.setMessages((list) =>
              list.map((m) => (m.id === userLocal ? { ...m, id: userMessage.id, files: served, pending: false } : m.id === botLocal ? { ...m, id: botMessageId, sources } : m)),
            )
            if (messageLimit) o.setAllowance(messageLimit)
          },
          help(block) {
            // A message about suicide or self-harm: the help block shows before any word of the reply.
            o.setMessages((list) => list.map((m) => (m.id === botId ? { ...m, help: block, text: `${block}\n\n` } : m)))
          },
          delta(piece) {
            o.setMessages((list) => list.map((m) => (m.id === botId ? { ...m, text: m.text + piece } : m)))
          },
          async done(whole, streamed, help) {
            if (streamed) o.setMessages((list) => list.map((m) => (m.id === botId ? { ...m, text: whole, help, pending: false } : m)))
            else {
              o.setMessages((list) => list.map((m) => (m.id === botId ? { ...m, help } : m)))
              await o.typeOut(botId!, whole)
            }
          },
        },
      )
      if (!finished && botId) o.poll(botId)
      return true
    } catch (e) {
      if (botId && !(e instanceof SendError)) {
        // The connection dropped after the server took the message: the reply is still being saved, so poll it.
        o.poll(botId)
        return true
      }
      const gone = new Set([userLocal, botLocal, userId, botId])
      o.setMessages((list) => list.filter((m) => !gone.has(m.id)))
      if (!o.premium) o.setAllowance((a) => ({ ...a, count: Math.max(0, a.count - 1) }))
      const code = e instanceof SendError ? e.code : undefined
      await showAlert(
        t('chat.errorTitle'),
        code === 'BotResponseFailureException' ? t('chat.noResponse') : t('chat.otherError', { message: (e as Error).message }),
      )
      return false
    } finally {
      o.setAnswering(false)
    }
  }
}
