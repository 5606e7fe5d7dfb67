// One editable content table (spec §2 /admin/app/content-editors/{slug}, §3, §5): newest rows first, each
// cell edited in place by its field type, translations per language, resizable columns remembered per slug.
// The app reads content when it renders, so a saved change shows there without a rebuild.
import { useEffect, useMemo, useRef, useState } from 'react'
import { toast } from '../../lib/toast'
import {
  columnResizingFeature,
  columnSizingFeature,
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnSizingState,
  type SortingState,
} from '@tanstack/react-table'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { SortHeader } from '../../components/admin/SortHeader'
import { Toggle } from '../../components/admin/Toggle'
import { Tabs, tabPanelProps } from '../../components/admin/Tabs'
import { MappingCell, NumberCell, SelectCell, TextCell } from '../../components/admin/ContentCells'
import { CreateRowDialog } from '../../components/admin/CreateRowDialog'
import { RESIZE_SAVE_DELAY_MS, loadColumnSizing, saveColumnSizing } from '../../lib/admin/columnSizing'
import { defaultColumnSize, type EditorContent, type EditorDefinition } from '../../lib/admin/content'
import { api } from '../../lib/api'
import { DATE_FORMATS, formatInZone } from '../../lib/dates'
import { useT } from '../../lib/reactI18n'
import type { EditableField, Lang } from '../../../../api/content/definitions'
import type { ContentRow, ScalarValue } from '../../../../api/content/values'

interface Props {
  definition: EditorDefinition
  rows: ContentRow[]
  defaults: EditorContent['defaultValues']
  timeZone: string
}

const LANGS: Lang[] = ['ENUS', 'ZHTW', 'ZHCN']
const features = tableFeatures({
  columnSizingFeature,
  columnResizingFeature,
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
})
const helper = createColumnHelper<typeof features, ContentRow>()
const NEWEST_FIRST: SortingState = [{ id: 'createdAt', desc: true }]

function Editor({ definition: def, rows: initialRows, defaults, timeZone }: Props) {
  const t = useT()
  const [rows, setRows] = useState(initialRows)
  const [lang, setLang] = useState<Lang>('ENUS')
  const [sorting, setSorting] = useState<SortingState>(NEWEST_FIRST)
  const [columnSizing, setColumnSizing] = useState<ColumnSizingState>({})
  const [creating, setCreating] = useState(false)
  const sizingLoaded = useRef(false)
  const base = `/content-editors/editable-contents`

  // Widths live in this browser only; they are read after hydration so the server HTML matches.
  useEffect(() => {
    setColumnSizing(loadColumnSizing(def.slug))
    sizingLoaded.current = true
  }, [def.slug])
  useEffect(() => {
    if (!sizingLoaded.current) return
    const timer = setTimeout(() => saveColumnSizing(def.slug, columnSizing), RESIZE_SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [columnSizing])

  const replace = (row: ContentRow) => setRows((rs) => rs.map((r) => (r.id === row.id ? row : r)))
  async function save(request: () => Promise<ContentRow>): Promise<boolean> {
    try {
      replace(await request())
      toast.success(t('admin.content.saved'))
      return true
    } catch {
      return false
    }
  }
  const purpose = t('admin.content.savePurpose')
  const saveValue = (row: ContentRow, field: string, value: ScalarValue) =>
    save(() => api<ContentRow>(`${base}/${def.slug}/contents/${row.id}`, { method: 'PATCH', body: { values: { [field]: value } }, purpose }))
  const saveTranslation = (row: ContentRow, language: Lang, field: string, text: string) =>
    save(() => api<ContentRow>(`${base}/${row.id}/locale/${language}`, { method: 'PATCH', body: { translate: { [field]: text } }, purpose }))
  const saveMapping = (row: ContentRow, field: string, keys: string[]) =>
    save(() => api<ContentRow>(`${base}/${def.slug}/contents/${row.id}/mappings/${field}`, { method: 'PUT', body: keys, purpose }))

  // Cells call the latest save functions through this ref, so columns change only with the language tab.
  const actions = useRef({ saveValue, saveTranslation, saveMapping })
  actions.current = { saveValue, saveTranslation, saveMapping }

  const columns = useMemo(() => {
    // "Price (USD), row 2": the row as the admin sees it counted, top to bottom.
    const cellLabel = (header: string, table: { getRowModel: () => { rows: { id: string }[] } }, rowId: string) =>
      t('admin.content.cellLabel', { field: header, row: table.getRowModel().rows.findIndex((r) => r.id === rowId) + 1 })
    const localized = (f: EditableField) => def.hasLocale && def.localeRequiredFields.includes(f.fieldName)
    const fieldColumn = (f: EditableField) => {
      const common = { id: `field:${f.fieldName}`, size: defaultColumnSize(f), minSize: 80, maxSize: 900 }
      if (localized(f)) {
        const header = `${f.header} (${lang})`
        return helper.accessor((r) => r.locale[lang]?.[f.fieldName] ?? '', {
          ...common,
          header,
          sortFn: 'alphanumeric',
          cell: ({ row, table, getValue }) => (
            <TextCell
              value={getValue()}
              max={f.max}
              label={cellLabel(header, table, row.id)}
              placeholder={t('admin.content.untranslated')}
              onCommit={(text) => actions.current.saveTranslation(row.original, lang, f.fieldName, text)}
            />
          ),
        })
      }
      if (f.type === 'mapping-many') {
        return helper.accessor((r) => r.mappings[f.fieldName] ?? [], {
          ...common,
          header: f.header,
          enableSorting: false,
          cell: ({ row, table, getValue }) => (
            <MappingCell keys={getValue()} options={f.selectOptions ?? []} label={cellLabel(f.header, table, row.id)} onCommit={(keys) => actions.current.saveMapping(row.original, f.fieldName, keys)} />
          ),
        })
      }
      return helper.accessor((r) => r.values[f.fieldName] ?? null, {
        ...common,
        header: f.header,
        sortFn: f.type === 'string' || f.type === 'select' ? 'alphanumeric' : 'basic',
        cell: ({ row, table, getValue }) => {
          const label = cellLabel(f.header, table, row.id)
          const commit = (value: ScalarValue) => actions.current.saveValue(row.original, f.fieldName, value)
          const value = getValue()
          switch (f.type) {
            case 'string':
              return <TextCell value={String(value ?? '')} max={f.max} label={label} onCommit={commit} />
            case 'number':
              return <NumberCell value={typeof value === 'number' ? value : null} min={f.min} max={f.max} label={label} onCommit={commit} />
            case 'boolean':
              return <Toggle checked={value === true} label={label} onChange={(on) => void commit(on)} />
            case 'select':
              return <SelectCell value={typeof value === 'string' ? value : null} options={f.selectOptions ?? []} label={label} onCommit={commit} />
            default:
              // Spec §8: an unknown field type is a programming error, not something to show the admin.
              throw new Error(`Unknown content field type ${f.type}`)
          }
        },
      })
    }
    return helper.columns([
      ...def.editableFields.map(fieldColumn),
      ...(def.hasLocale
        ? [
            helper.accessor((r) => r.translate, {
              id: 'translated',
              header: t('admin.content.translated'),
              size: 180,
              enableSorting: false,
              cell: ({ getValue }) => (
                <span className="lang-flags">
                  {LANGS.map((l) => (
                    <span key={l} className={getValue()[l] ? 'admin-chip done' : 'admin-chip'}>
                      {l}
                      <span className="sr-only">{getValue()[l] ? t('admin.content.done') : t('admin.content.missing')}</span>
                    </span>
                  ))}
                </span>
              ),
            }),
          ]
        : []),
      helper.accessor('createdAt', {
        header: t('admin.content.created'),
        size: 190,
        sortFn: 'basic',
        cell: ({ getValue }) => <span className="nowrap">{formatInZone(getValue(), DATE_FORMATS.admin, timeZone)}</span>,
      }),
    ])
  }, [lang])

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (r) => r.id,
    state: { sorting, columnSizing },
    onSortingChange: setSorting,
    onColumnSizingChange: setColumnSizing,
    columnResizeMode: 'onChange',
    enableSortingRemoval: false,
  })

  return (
    <>
      <div className="admin-toolbar">
        <p className="muted grow" role="status">{t('admin.content.rowCount', { count: rows.length })}</p>
        <button type="button" className="btn" onClick={() => setCreating(true)}>
          <AdminIcon name="plus" size={18} />
          {t('admin.content.add')}
        </button>
      </div>
      {def.hasLocale && (
        <Tabs
          idPrefix="content-lang"
          label={t('admin.content.language')}
          tabs={LANGS.map((l) => ({ id: l, label: t(`admin.languages.${l}`) }))}
          value={lang}
          onChange={setLang}
        />
      )}
      <div className="admin-table-wrap fit" {...(def.hasLocale ? tabPanelProps('content-lang', lang) : {})}>
        <table className="admin-table fixed" style={{ width: table.getTotalSize() }} data-testid="content-table">
          <caption className="sr-only">{def.header}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortHeader key={header.id} header={header} setSize={(id, size) => table.setColumnSizing((s) => ({ ...s, [id]: size }))}>
                    <table.FlexRender header={header} />
                  </SortHeader>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-row-id={row.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td className="empty" colSpan={columns.length}>{t('admin.content.empty')}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {creating && (
        <CreateRowDialog
          definition={def}
          defaults={defaults}
          onClose={() => setCreating(false)}
          onCreated={(row) => {
            setRows((rs) => [row, ...rs])
            setCreating(false)
            toast.success(t('admin.content.rowCreated'))
          }}
        />
      )}
    </>
  )
}

export default function ContentTable(props: Props) {
  return (
    <ErrorBoundary>
      <Editor {...props} />
    </ErrorBoundary>
  )
}
