// Locale management (spec §2, §4 "Locale edit"): the three locale docs as JSON, checked while typing.
// Save sends only the docs that changed, and only when every doc is valid JSON.
import { useMemo, useRef, useState, type RefObject } from 'react'
import { toast } from '../../lib/toast'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { Tabs, tabPanelProps } from '../../components/admin/Tabs'
import { canonical, checkLocaleJson, pretty, type JsonCheck } from '../../lib/admin/jsonDoc'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'
import type { Lang } from '../../../../api/content/definitions'
import type { LocaleDoc } from '../../../../api/content/localeDocs'

type Docs = Record<Lang, Record<string, unknown>>

/** Puts the caret at the start of a 1-based line and scrolls it into view. */
function goToLine(area: HTMLTextAreaElement, line: number) {
  const start = area.value.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0)
  area.focus()
  area.setSelectionRange(start, start)
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20
  area.scrollTop = Math.max(0, (line - 3) * lineHeight)
}

const byId = (docs: LocaleDoc[]) => Object.fromEntries(docs.map((d) => [d.id, d.content])) as Docs

function JsonEditor(props: { id: string; label: string; text: string; check: JsonCheck; statusId: string; onChange: (text: string) => void; area: RefObject<HTMLTextAreaElement | null> }) {
  const gutter = useRef<HTMLPreElement>(null)
  const lines = props.text.split('\n').length
  const badLine = props.check.ok ? null : props.check.line
  return (
    <div className="json-editor" data-invalid={!props.check.ok}>
      <pre ref={gutter} className="json-gutter" aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i} className={i + 1 === badLine ? 'bad' : undefined}>{i + 1}{'\n'}</span>
        ))}
      </pre>
      <textarea
        ref={props.area}
        id={props.id}
        aria-label={props.label}
        aria-describedby={props.statusId}
        aria-invalid={!props.check.ok}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        wrap="off"
        value={props.text}
        onChange={(e) => props.onChange(e.target.value)}
        onScroll={(e) => gutter.current && (gutter.current.scrollTop = e.currentTarget.scrollTop)}
      />
    </div>
  )
}

function Editor({ docs }: { docs: LocaleDoc[] }) {
  const t = useT()
  const ids = docs.map((d) => d.id)
  const [saved, setSaved] = useState<Docs>(() => byId(docs))
  const [texts, setTexts] = useState<Record<Lang, string>>(() => Object.fromEntries(docs.map((d) => [d.id, pretty(d.content)])) as Record<Lang, string>)
  const [current, setCurrent] = useState<Lang>(ids[0] ?? 'ENUS')
  const [busy, setBusy] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)

  const checks = useMemo(() => Object.fromEntries(ids.map((id) => [id, checkLocaleJson(texts[id])])) as Record<Lang, JsonCheck>, [texts])
  const changed = ids.filter((id) => {
    const check = checks[id]
    return check.ok && canonical(check.value) !== canonical(saved[id])
  })
  const allValid = ids.every((id) => checks[id].ok)
  const check = checks[current]

  async function save() {
    if (!allValid || !changed.length) return
    setBusy(true)
    try {
      const body = { locales: changed.map((id) => ({ id, content: (checks[id] as { value: Record<string, unknown> }).value })) }
      const { locales } = await api<{ locales: LocaleDoc[] }>('/content-editors/locales', { method: 'PATCH', body, purpose: t('admin.locales.savePurpose') })
      setSaved(byId(locales))
      toast.success(t('admin.locales.saved', { langs: changed.join(', ') }))
    } catch {
      // The wrapper has shown why; the edits stay in the editor.
    } finally {
      setBusy(false)
    }
  }

  const statusText = check.ok
    ? changed.includes(current)
      ? t('admin.locales.validChanged')
      : t('admin.locales.validSame')
    : check.message === 'not-object'
      ? t('admin.locales.notObject')
      : check.line
        ? t('admin.locales.invalidAt', { line: check.line, message: check.message })
        : t('admin.locales.invalid', { message: check.message })

  return (
    <>
      <Tabs
        idPrefix="locale-doc"
        label={t('admin.locales.docs')}
        value={current}
        onChange={setCurrent}
        tabs={ids.map((id) => ({
          id,
          label: t(`admin.languages.${id}`),
          marker: !checks[id].ok ? (
            <span className="tab-dot invalid" role="img" aria-label={t('admin.locales.markInvalid')} />
          ) : changed.includes(id) ? (
            <span className="tab-dot" role="img" aria-label={t('admin.locales.markChanged')} />
          ) : null,
        }))}
      />
      <div {...tabPanelProps('locale-doc', current)}>
        <JsonEditor
          id={`locale-json-${current}`}
          label={t('admin.locales.editorLabel', { lang: t(`admin.languages.${current}`) })}
          statusId="locale-json-status"
          text={texts[current]}
          check={check}
          area={area}
          onChange={(text) => setTexts((all) => ({ ...all, [current]: text }))}
        />
        <div className={check.ok ? 'json-status ok' : 'json-status bad'}>
          <span id="locale-json-status" role="status" data-testid="json-status">{statusText}</span>
          {!check.ok && check.line && (
            <button type="button" className="link-button" onClick={() => area.current && goToLine(area.current, check.line!)}>
              {t('admin.locales.goToLine', { line: check.line })}
            </button>
          )}
        </div>
      </div>
      <div className="sticky-actions">
        <button type="button" className="btn btn-ghost" disabled={!check.ok} onClick={() => check.ok && setTexts((all) => ({ ...all, [current]: pretty(check.value) }))}>
          {t('admin.locales.format')}
        </button>
        <button type="button" className="btn btn-ghost" disabled={texts[current] === pretty(saved[current])} onClick={() => setTexts((all) => ({ ...all, [current]: pretty(saved[current]) }))}>
          {t('admin.locales.discard')}
        </button>
        <button type="button" className="btn" disabled={busy || !allValid || !changed.length} onClick={save}>
          {changed.length > 1 ? t('admin.locales.saveMany', { count: changed.length }) : t('common.save')}
        </button>
      </div>
    </>
  )
}

export default function LocaleEditor(props: { docs: LocaleDoc[] }) {
  return (
    <ErrorBoundary>
      <Editor {...props} />
    </ErrorBoundary>
  )
}
