// The create form of a content table (spec §5): starts from the definition's new-row defaults, needs every
// field, keeps numbers within min/max. Translated fields are entered in English, with optional Chinese texts.
import { useState, type FormEvent } from 'react'
import { Dialog } from '../Dialog'
import { TextField } from './TextField'
import { Toggle } from './Toggle'
import { truncate } from './ContentCells'
import { InlineAlert } from './InlineAlert'
import { api } from '../../lib/api'
import { failureOf, type Failure } from '../../lib/admin/failure'
import { useT } from '../../lib/reactI18n'
import type { EditableField, Lang } from '../../../../api/content/definitions'
import type { ContentRow, ScalarValue } from '../../../../api/content/values'
import type { EditorDefinition } from '../../lib/admin/content'

export interface NewRowDefaults {
  values: Record<string, ScalarValue>
  mappings: Record<string, string[]>
}

const OTHER_LANGS: Lang[] = ['ZHTW', 'ZHCN']
const clamp = (n: number, f: EditableField) => Math.min(f.max ?? Infinity, Math.max(f.min ?? -Infinity, n))

function isEmpty(f: EditableField, value: ScalarValue | undefined, keys: string[] | undefined) {
  if (f.type === 'mapping-many') return !keys?.length
  if (f.type === 'string') return typeof value !== 'string' || value.trim() === ''
  return value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))
}

export function CreateRowDialog(props: { definition: EditorDefinition; defaults: NewRowDefaults; onCreated: (row: ContentRow) => void; onClose: () => void }) {
  const t = useT()
  const def = props.definition
  const [values, setValues] = useState(props.defaults.values)
  const [mappings, setMappings] = useState(props.defaults.mappings)
  const [translations, setTranslations] = useState<Partial<Record<Lang, Record<string, string>>>>({})
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  const localized = (f: EditableField) => def.hasLocale && def.localeRequiredFields.includes(f.fieldName)
  const missing = def.editableFields.filter((f) => isEmpty(f, values[f.fieldName], mappings[f.fieldName]))
  const errorOf = (f: EditableField) => (tried && missing.includes(f) ? t('admin.content.required', { field: f.header }) : null)
  const set = (name: string, value: ScalarValue) => setValues((v) => ({ ...v, [name]: value }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTried(true)
    if (missing.length) return
    const english = Object.fromEntries(def.localeRequiredFields.map((name) => [name, String(values[name] ?? '')]))
    const locale: Partial<Record<Lang, Record<string, string>>> = def.hasLocale ? { ENUS: english } : {}
    for (const lang of OTHER_LANGS) {
      const texts = Object.fromEntries(Object.entries(translations[lang] ?? {}).filter(([, text]) => text.trim()))
      if (Object.keys(texts).length) locale[lang] = texts
    }
    const path = `/content-editors/editable-contents/${def.slug}/contents`
    setBusy(true)
    setFailure(null)
    try {
      props.onCreated(await api<ContentRow>(path, { body: { values, mappings, locale }, silent: true }))
    } catch (err) {
      setFailure(failureOf(t('admin.content.createPurpose'), err, 'POST', path))
      setBusy(false)
    }
  }

  function input(f: EditableField) {
    const id = `new-${f.fieldName}`
    const label = localized(f) ? `${f.header} (ENUS)` : f.header
    const value = values[f.fieldName]
    switch (f.type) {
      case 'string':
        return <TextField id={id} label={label} value={String(value ?? '')} error={errorOf(f)} onChange={(e) => set(f.fieldName, truncate(e.target.value, f.max))} />
      case 'number':
        return (
          <TextField
            id={id}
            type="number"
            label={label}
            inputMode="decimal"
            min={f.min ?? undefined}
            max={f.max ?? undefined}
            value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
            error={errorOf(f)}
            help={f.min !== null || f.max !== null ? t('admin.content.range', { min: f.min ?? '−∞', max: f.max ?? '∞' }) : undefined}
            onChange={(e) => set(f.fieldName, e.target.value === '' ? null : Number(e.target.value))}
            // Clamped once typing is done, so a number can be typed through values outside the range.
            onBlur={() => typeof value === 'number' && Number.isFinite(value) && set(f.fieldName, clamp(value, f))}
          />
        )
      case 'boolean':
        return (
          <div className="field">
            <span>{label}</span>
            <div><Toggle checked={value === true} label={label} onChange={(on) => set(f.fieldName, on)} /></div>
          </div>
        )
      case 'select':
        return (
          <div className="field">
            <label htmlFor={id}>{label}</label>
            <select id={id} value={String(value ?? '')} aria-invalid={errorOf(f) ? true : undefined} aria-describedby={errorOf(f) ? `${id}-error` : undefined} onChange={(e) => set(f.fieldName, e.target.value || null)}>
              <option value="">{t('admin.content.choose')}</option>
              {f.selectOptions!.map((o) => <option key={o.key} value={o.key}>{o.text}</option>)}
            </select>
            {errorOf(f) && <div id={`${id}-error`} className="field-error" role="alert">{errorOf(f)}</div>}
          </div>
        )
      case 'mapping-many':
        return (
          <fieldset className="field" aria-describedby={errorOf(f) ? `${id}-error` : undefined}>
            <legend>{label}</legend>
            <div className="check-list">
              {f.selectOptions!.map((o) => (
                <label key={o.key}>
                  <input
                    type="checkbox"
                    checked={mappings[f.fieldName]?.includes(o.key) ?? false}
                    onChange={(e) =>
                      setMappings((m) => {
                        const chosen = new Set(m[f.fieldName] ?? [])
                        if (e.target.checked) chosen.add(o.key)
                        else chosen.delete(o.key)
                        return { ...m, [f.fieldName]: f.selectOptions!.map((x) => x.key).filter((k) => chosen.has(k)) }
                      })
                    }
                  />
                  {o.text}
                </label>
              ))}
            </div>
            {errorOf(f) && <div id={`${id}-error`} className="field-error" role="alert">{errorOf(f)}</div>}
          </fieldset>
        )
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && props.onClose()} title={t('admin.content.createTitle', { header: def.header })} description={t('admin.content.createText')} wide>
      <InlineAlert failure={failure} />
      <form onSubmit={submit} noValidate>
        <div className="dialog-fields">
          {def.editableFields.map((f) => (
            <div key={f.fieldName}>
              {input(f)}
              {localized(f) &&
                OTHER_LANGS.map((lang) => (
                  <TextField
                    key={lang}
                    id={`new-${f.fieldName}-${lang}`}
                    label={`${f.header} (${lang})`}
                    value={translations[lang]?.[f.fieldName] ?? ''}
                    help={t('admin.content.fallsBack')}
                    onChange={(e) => {
                      const text = truncate(e.target.value, f.max)
                      setTranslations((tr) => ({ ...tr, [lang]: { ...tr[lang], [f.fieldName]: text } }))
                    }}
                  />
                ))}
            </div>
          ))}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={props.onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn" disabled={busy}>{t('admin.content.create')}</button>
        </div>
      </form>
    </Dialog>
  )
}
