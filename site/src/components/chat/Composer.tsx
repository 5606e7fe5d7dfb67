// The chat input (spec §5): Enter sends on desktop, Ctrl/Cmd+Enter adds a line, mobile Enter never sends;
// grows to 5 rows; up to 3 images, each uploading at once.
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { toast } from '../../lib/toast'
import { t } from '../../lib/clientI18n'
import { api } from '../../lib/api'
import { Icon } from '../Icon'
import { readDraft, saveDraft } from '../../lib/drafts'
import { MESSAGE_COUNT_FROM, MESSAGE_MAX_CHARS } from '../../../../api/chat/messageText'

export const MAX_FILES = 3
const MAX_ROWS = 5

export interface Attachment {
  key: string
  preview: string
  id: string | null
}

const isMobile = () => /Android|iPhone|iPad|iPod|Mobile|Silk|Opera Mini/i.test(navigator.userAgent)

export function Composer(props: { conversationId: string; disabled: boolean; limitReached?: boolean; onSend: (text: string, files: Attachment[]) => Promise<boolean> }) {
  const [text, setText] = useState('')
  // The draft of this conversation follows every keystroke and comes back after a reload or a new sign-in
  // (read after hydration: the server has no such storage). Saving is declared first so that it skips the first
  // render, before the draft has been read.
  const restored = useRef(false)
  // Read-only until the island is live: text typed into the server's HTML would be replaced by the draft (or lost).
  const [live, setLive] = useState(false)
  useEffect(() => {
    if (restored.current) saveDraft(props.conversationId, text)
  }, [text])
  useEffect(() => {
    setText(readDraft(props.conversationId))
    restored.current = true
    setLive(true)
  }, [props.conversationId])
  const [files, setFiles] = useState<Attachment[]>([])
  const area = useRef<HTMLTextAreaElement>(null)
  const picker = useRef<HTMLInputElement>(null)
  // Where the caret goes once an inserted newline is on screen (before the next key is handled).
  const caret = useRef<number | null>(null)
  const uploading = files.some((f) => f.id === null)
  // Text beyond the limit is never cut (a paste keeps every character): the count shows near the limit, and past
  // it the message says why it cannot be sent until it is shortened.
  const over = text.length - MESSAGE_MAX_CHARS
  const canSend = !props.disabled && !uploading && over <= 0 && (text.trim().length > 0 || files.length > 0)
  const number = (n: number) => n.toLocaleString(document.documentElement.lang || undefined)

  useLayoutEffect(() => {
    if (caret.current === null || !area.current) return
    area.current.setSelectionRange(caret.current, caret.current)
    caret.current = null
  }, [text])

  useEffect(() => {
    const el = area.current
    if (!el) return
    el.rows = 1
    const line = parseFloat(getComputedStyle(el).lineHeight) || 22
    el.rows = Math.min(MAX_ROWS, Math.max(1, Math.round((el.scrollHeight - 20) / line)))
  }, [text])

  async function upload(file: File, key: string) {
    const form = new FormData()
    form.append('file', file)
    try {
      const { id } = await api<{ id: string }>('/self/file', { form, silent: true })
      setFiles((list) => list.map((f) => (f.key === key ? { ...f, id } : f)))
    } catch {
      setFiles((list) => list.filter((f) => f.key !== key))
      toast.error(t('chat.uploadFailed'))
    }
  }

  function pick(list: FileList | null) {
    const images = Array.from(list ?? []).filter((f) => f.type.startsWith('image/'))
    const room = MAX_FILES - files.length
    const taken = images.slice(0, Math.max(0, room))
    const added = taken.map((file) => ({ key: crypto.randomUUID(), preview: URL.createObjectURL(file), id: null, file }))
    setFiles((current) => [...current, ...added.map(({ file, ...a }) => a)])
    added.forEach((a) => upload(a.file, a.key))
    if (picker.current) picker.current.value = ''
  }

  async function send() {
    if (!canSend) return
    const sent = await props.onSend(text.trim(), files)
    if (sent) {
      setText('')
      // The previews now belong to the sent message, which shows them until the stored files load.
      setFiles([])
    }
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing || isMobile()) return
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault()
      const el = e.currentTarget
      const { selectionStart: s, selectionEnd: end } = el
      caret.current = s + 1
      setText(text.slice(0, s) + '\n' + text.slice(end))
      return
    }
    if (e.shiftKey) return
    e.preventDefault()
    void send()
  }

  return (
    <form className="composer" onSubmit={(e) => { e.preventDefault(); void send() }}>
      {files.length > 0 && (
        <ul className="attachments">
          {files.map((f) => (
            <li key={f.key} className={f.id ? '' : 'is-uploading'}>
              <img src={f.preview} alt="" width={56} height={56} />
              {f.id === null && <span className="spinner-sm" role="status" aria-label={t('chat.uploading')} />}
              <button type="button" className="remove" aria-label={t('chat.removeFile')} onClick={() => { URL.revokeObjectURL(f.preview); setFiles((l) => l.filter((x) => x.key !== f.key)) }}>×</button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer-row">
        <input ref={picker} type="file" accept="image/*" multiple hidden onChange={(e) => pick(e.target.files)} data-testid="file-input" />
        <button type="button" className="icon-btn" aria-label={t('chat.attach')} disabled={props.disabled || files.length >= MAX_FILES} onClick={() => picker.current?.click()}>
          <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><rect x="3" y="3" width="18" height="18" rx="3" /><circle cx="8.5" cy="8.5" r="1.5" /><path d="m21 15-5-5L5 21" /></svg>
        </button>
        <label htmlFor="chat-input" className="sr-only">{t('chat.inputLabel')}</label>
        <textarea
          id="chat-input"
          ref={area}
          rows={1}
          value={text}
          placeholder={props.limitReached ? t('chat.limitPlaceholder') : t('chat.placeholder')}
          aria-invalid={over > 0}
          aria-describedby={text.length >= MESSAGE_COUNT_FROM ? 'chat-count' : undefined}
          disabled={props.disabled}
          readOnly={!live}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="icon-btn send" aria-label={t('chat.send')} disabled={!canSend}>
          <Icon name="send" />
        </button>
      </div>
      {text.length >= MESSAGE_COUNT_FROM && (
        <div id="chat-count" className={over > 0 ? 'char-count is-over' : 'char-count'}>
          <span aria-live="polite">{t('chat.charCount', { length: number(text.length), max: number(MESSAGE_MAX_CHARS) })}</span>
          {over > 0 && <p role="alert">{t('chat.tooLong', { max: number(MESSAGE_MAX_CHARS), over: number(over) })}</p>}
        </div>
      )}
    </form>
  )
}
