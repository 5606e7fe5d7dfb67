// The edit dialog of one memory: its text, kind, chip label and the person it is about.
import { useEffect, useState } from 'react'
import { Dialog } from '../Dialog'
import { t } from '../../lib/clientI18n'
import type { Memory, MemoryKind } from './groups'

export interface MemoryDraft {
  text: string
  kind: MemoryKind
  label: string
  personName: string | null
}

export function MemoryEditor(props: {
  memory: Memory | null
  kinds: readonly MemoryKind[]
  busy: boolean
  onCancel: () => void
  onSave: (memory: Memory, draft: MemoryDraft) => void
}) {
  const [draft, setDraft] = useState<MemoryDraft>({ text: '', kind: 'fact', label: '', personName: null })
  useEffect(() => {
    if (props.memory)
      setDraft({ text: props.memory.text, kind: props.memory.kind, label: props.memory.label, personName: props.memory.person?.name ?? null })
  }, [props.memory])
  const valid = draft.text.trim().length > 0 && draft.label.trim().length > 0
  const set = (patch: Partial<MemoryDraft>) => setDraft((d) => ({ ...d, ...patch }))
  return (
    <Dialog
      open={props.memory !== null}
      onOpenChange={(open) => !open && props.onCancel()}
      title={t('memories.editTitle')}
      wide
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={props.onCancel}>{t('memories.cancel')}</button>
          <button
            type="button"
            className="btn"
            disabled={!valid || props.busy}
            onClick={() => props.memory && props.onSave(props.memory, { ...draft, text: draft.text.trim(), label: draft.label.trim(), personName: draft.personName?.trim() || null })}
          >
            {t('memories.save')}
          </button>
        </>
      }
    >
      <label className="field" htmlFor="memory-text">
        <span>{t('memories.textLabel')}</span>
        <textarea id="memory-text" rows={3} maxLength={500} value={draft.text} onChange={(e) => set({ text: e.target.value })} />
      </label>
      <label className="field" htmlFor="memory-kind">
        <span>{t('memories.kindLabel')}</span>
        <select id="memory-kind" value={draft.kind} onChange={(e) => set({ kind: e.target.value as MemoryKind })}>
          {props.kinds.map((k) => (
            <option key={k} value={k}>{t(`memories.kind_${k}`)}</option>
          ))}
        </select>
      </label>
      <label className="field" htmlFor="memory-label">
        <span>{t('memories.labelLabel')}</span>
        <input id="memory-label" type="text" maxLength={60} value={draft.label} onChange={(e) => set({ label: e.target.value })} />
      </label>
      <label className="field" htmlFor="memory-person">
        <span>{t('memories.personLabel')}</span>
        <input id="memory-person" type="text" maxLength={80} value={draft.personName ?? ''} onChange={(e) => set({ personName: e.target.value })} />
      </label>
    </Dialog>
  )
}
