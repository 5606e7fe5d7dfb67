// Inline editors for the cells of a content table, one per field type (spec §3, §5). Text and number
// cells keep a draft and commit on Enter or when focus leaves; Escape and refused saves put the value back.
import { useEffect, useState, type KeyboardEvent } from 'react'
import * as DM from '@radix-ui/react-dropdown-menu'
import { toast } from '../../lib/toast'
import { AdminIcon } from './AdminIcon'
import { useT } from '../../lib/reactI18n'
import type { SelectOption } from '../../../../api/content/definitions'

/** Resolves true when the server kept the change. */
type Commit<T> = (value: T) => Promise<boolean>

/** At most `max` characters as a reader counts them (the server counts code points too). */
export const truncate = (text: string, max: number | null) => (max === null ? text : [...text].slice(0, max).join(''))

function useDraft<T>(value: T) {
  const [draft, setDraft] = useState(value)
  const [saving, setSaving] = useState(false)
  useEffect(() => setDraft(value), [value])
  return { draft, setDraft, saving, setSaving }
}

function commitKeys(e: KeyboardEvent<HTMLInputElement>, revert: () => void) {
  if (e.key === 'Enter') e.currentTarget.blur()
  if (e.key === 'Escape') {
    revert()
    // The revert must land before blur commits the draft.
    requestAnimationFrame(() => (e.target as HTMLInputElement).blur())
  }
}

export function TextCell(props: { value: string; max: number | null; label: string; placeholder?: string; onCommit: Commit<string> }) {
  const { draft, setDraft, saving, setSaving } = useDraft(props.value)
  async function commit() {
    if (draft === props.value) return
    setSaving(true)
    if (!(await props.onCommit(draft))) setDraft(props.value)
    setSaving(false)
  }
  return (
    <input
      type="text"
      className={saving ? 'cell-input saving' : 'cell-input'}
      aria-label={props.label}
      value={draft}
      placeholder={props.placeholder}
      onChange={(e) => setDraft(truncate(e.target.value, props.max))}
      onBlur={commit}
      onKeyDown={(e) => commitKeys(e, () => setDraft(props.value))}
    />
  )
}

export function NumberCell(props: { value: number | null; min: number | null; max: number | null; label: string; onCommit: Commit<number> }) {
  const t = useT()
  const shown = props.value === null ? '' : String(props.value)
  const { draft, setDraft, saving, setSaving } = useDraft(shown)
  async function commit() {
    if (draft === shown) return
    const n = Number(draft)
    if (draft.trim() === '' || !Number.isFinite(n)) return setDraft(shown)
    // Out of range: say so and put the saved value back (spec §5).
    const outOfRange =
      props.min !== null && n < props.min
        ? t('admin.content.minValue', { min: props.min })
        : props.max !== null && n > props.max
          ? t('admin.content.maxValue', { max: props.max })
          : null
    if (outOfRange) {
      toast.error(outOfRange)
      return setDraft(shown)
    }
    setSaving(true)
    if (!(await props.onCommit(n))) setDraft(shown)
    setSaving(false)
  }
  return (
    <input
      type="number"
      inputMode="decimal"
      className={saving ? 'cell-input saving' : 'cell-input'}
      aria-label={props.label}
      value={draft}
      min={props.min ?? undefined}
      max={props.max ?? undefined}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => commitKeys(e, () => setDraft(shown))}
    />
  )
}

export function SelectCell(props: { value: string | null; options: SelectOption[]; label: string; onCommit: Commit<string | null> }) {
  const t = useT()
  const [saving, setSaving] = useState(false)
  return (
    <select
      className="cell-input"
      aria-label={props.label}
      value={props.value ?? ''}
      disabled={saving}
      onChange={async (e) => {
        setSaving(true)
        await props.onCommit(e.target.value || null)
        setSaving(false)
      }}
    >
      {props.value === null && <option value="">{t('admin.content.choose')}</option>}
      {props.options.map((o) => (
        <option key={o.key} value={o.key}>{o.text}</option>
      ))}
    </select>
  )
}

/** A multi-select of the allowed keys; each tick is saved at once and the menu stays open for the next. */
export function MappingCell(props: { keys: string[]; options: SelectOption[]; label: string; onCommit: Commit<string[]> }) {
  const t = useT()
  const [saving, setSaving] = useState(false)
  const textOf = (key: string) => props.options.find((o) => o.key === key)?.text ?? key
  async function toggle(key: string, on: boolean) {
    const chosen = new Set(props.keys)
    if (on) chosen.add(key)
    else chosen.delete(key)
    setSaving(true)
    // In the options' order, so the list reads the same however it was ticked.
    await props.onCommit(props.options.map((o) => o.key).filter((k) => chosen.has(k)))
    setSaving(false)
  }
  return (
    // Not modal: a failed save's alert must be able to take focus while the menu is open.
    <DM.Root modal={false}>
      <DM.Trigger className="mapping-trigger" aria-label={`${props.label}: ${props.keys.map(textOf).join(', ') || t('admin.content.none')}`}>
        <span className="keys">
          {props.keys.length ? props.keys.map((k) => <span key={k} className="admin-chip">{textOf(k)}</span>) : <span className="muted">{t('admin.content.none')}</span>}
        </span>
        <AdminIcon name="chevronDown" size={16} />
      </DM.Trigger>
      <DM.Portal>
        <DM.Content className="admin-dropdown" align="start" sideOffset={4}>
          <DM.Label className="admin-dropdown-label"><strong>{props.label}</strong></DM.Label>
          {props.options.map((o) => (
            <DM.CheckboxItem
              key={o.key}
              className="admin-dropdown-item"
              checked={props.keys.includes(o.key)}
              disabled={saving}
              onCheckedChange={(on) => void toggle(o.key, on === true)}
              onSelect={(e) => e.preventDefault()}
            >
              <span className="check">
                <DM.ItemIndicator><AdminIcon name="check" size={16} /></DM.ItemIndicator>
              </span>
              {o.text}
            </DM.CheckboxItem>
          ))}
        </DM.Content>
      </DM.Portal>
    </DM.Root>
  )
}
