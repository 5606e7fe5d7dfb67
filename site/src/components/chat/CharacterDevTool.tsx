// Character Dev Tool (spec §6) for ADMIN and DEVELOPER: the two prompts, Delete All Messages, the location.
import { useState } from 'react'
import { toast } from '../../lib/toast'
import { Dialog, ConfirmDialog } from '../Dialog'
import { Icon } from '../Icon'
import { t } from '../../lib/clientI18n'
import { api, ApiError } from '../../lib/api'
import { showAlert } from '../../lib/alertDialog'
import { personChip } from './ReplySources'
import type { ReplySources } from './types'

interface Props {
  characterId: string
  conversationId: string
  geoLocation: { latitude: number; longitude: number } | null
  shareLocation: boolean
  onShareLocation: (on: boolean) => void
  onMessagesDeleted: () => void
  /** What the latest reply's prompt drew on, shown to staff in full. */
  lastReplySources: ReplySources | null
}

const messageOf = (e: unknown) => (e instanceof ApiError ? `${e.code ?? e.status}: ${e.message}` : String(e))

export function CharacterDevTool(props: Props) {
  const [open, setOpen] = useState(false)
  const [saved, setSaved] = useState({ prompt: '', idealSelfPrompt: '' })
  const [draft, setDraft] = useState({ prompt: '', idealSelfPrompt: '' })
  const [confirmDelete, setConfirmDelete] = useState(false)
  // What the last reply's memories say now (null: forgotten since).
  const [memoryTexts, setMemoryTexts] = useState<Record<string, string | null>>({})

  async function openTool() {
    try {
      const c = await api<{ prompt?: string | null; idealSelfPrompt?: string | null }>(`/chatbots/characters/${props.characterId}`, {
        query: { includePrompt: true },
        silent: true,
      })
      const values = { prompt: c.prompt ?? '', idealSelfPrompt: c.idealSelfPrompt ?? '' }
      const ids = props.lastReplySources?.memories.map((m) => m.id) ?? []
      const texts = await Promise.all(
        ids.map((id) => api<{ text: string }>(`/memories/${id}`, { silent: true }).then((m) => m.text, () => null)),
      )
      setMemoryTexts(Object.fromEntries(ids.map((id, i) => [id, texts[i]])))
      setSaved(values)
      setDraft(values)
      setOpen(true)
    } catch (e) {
      await showAlert(t('chat.fetchCharacterFailed'), messageOf(e))
    }
  }

  async function save(field: 'prompt' | 'idealSelfPrompt') {
    try {
      await api(`/chatbots/characters/${props.characterId}/prompt`, { method: 'PATCH', body: { [field]: draft[field] }, silent: true })
      setSaved((s) => ({ ...s, [field]: draft[field] }))
      toast.success(t('chat.promptSaved'))
    } catch (e) {
      await showAlert(t('chat.savePromptFailed'), messageOf(e))
    }
  }

  async function deleteAll() {
    setConfirmDelete(false)
    try {
      await api(`/chatbots/conversations/${props.conversationId}/messages`, { method: 'DELETE', silent: true })
      toast.success(t('chat.messagesDeleted'))
      props.onMessagesDeleted()
    } catch (e) {
      await showAlert(t('chat.deleteFailed'), messageOf(e))
    }
  }

  const editor = (field: 'prompt' | 'idealSelfPrompt', label: string) => (
    <div className="prompt-editor">
      <label className="field" htmlFor={`dt-${field}`}>
        <span>{label}</span>
        <textarea id={`dt-${field}`} rows={8} value={draft[field]} onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))} />
      </label>
      <button type="button" className="btn btn-ghost" disabled={draft[field] === saved[field]} onClick={() => save(field)}>
        {t('chat.save')} · {label}
      </button>
    </div>
  )

  return (
    <>
      {props.geoLocation && (
        <button
          type="button"
          className="icon-btn"
          aria-label={t('chat.location')}
          onClick={() => showAlert(t('chat.location'), t('chat.locationText', props.geoLocation!))}
        >
          <Icon name="pin" />
        </button>
      )}
      <button type="button" className="icon-btn" aria-label={t('chat.devTool')} onClick={openTool} data-testid="character-dev-tool">
        <Icon name="wrench" />
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={t('chat.devTool')} wide>
        {editor('idealSelfPrompt', t('chat.idealSelfPrompt'))}
        {editor('prompt', t('chat.systemPrompt'))}
        <section className="dev-sources" aria-labelledby="dev-sources-title">
          <h3 id="dev-sources-title">{t('chat.sourcesTitle')}</h3>
          {props.lastReplySources && (props.lastReplySources.people.length > 0 || props.lastReplySources.memories.length > 0) ? (
            <ul>
              {props.lastReplySources.people.map((p) => <li key={p.id}>{personChip(p)}</li>)}
              {props.lastReplySources.memories.map((m) => <li key={m.id}><strong>{m.label}</strong> ({m.kind}): {memoryTexts[m.id] ?? t('memories.forgotten')}</li>)}
            </ul>
          ) : (
            <p className="muted">{t('chat.noSources')}</p>
          )}
        </section>
        <label className="check">
          <input type="checkbox" checked={props.shareLocation} onChange={(e) => props.onShareLocation(e.target.checked)} /> {t('chat.shareLocation')}
        </label>
        <div className="dialog-actions">
          <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)}>{t('chat.deleteAll')}</button>
          <button type="button" className="btn" onClick={() => setOpen(false)}>{t('common.close')}</button>
        </div>
      </Dialog>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('chat.deleteAll')}
        description={t('chat.deleteAllConfirm')}
        confirmText={t('chat.deleteAll')}
        cancelText={t('common.cancel')}
        onConfirm={deleteAll}
        danger
      />
    </>
  )
}
