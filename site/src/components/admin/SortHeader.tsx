// A table header cell: a sort button when the column sorts (aria-sort says how), and a resize handle when
// the column resizes (drag, or arrow keys on the focused handle).
import type { ReactNode } from 'react'
import { AdminIcon } from './AdminIcon'
import { useT } from '../../lib/reactI18n'

const KEY_STEP = 16

// What this cell uses of a header. Tables with different feature sets pass their own headers; the sorting
// and sizing methods exist only where the table registered those features.
interface TableHeader {
  isPlaceholder: boolean
  getSize?: () => number
  getResizeHandler?: () => (event: unknown) => void
  column: {
    id: string
    columnDef: { header?: unknown; minSize?: number; maxSize?: number }
    getCanSort?: () => boolean
    getIsSorted?: () => false | 'asc' | 'desc'
    getToggleSortingHandler?: () => undefined | ((event: unknown) => void)
    getCanResize?: () => boolean
    getIsResizing?: () => boolean
    resetSize?: () => void
  }
}

/** `setSize` makes the column resizable: the table's way to set one column's width. */
export function SortHeader({ header, children, setSize }: { header: TableHeader; children: ReactNode; setSize?: (columnId: string, size: number) => void }) {
  const t = useT()
  const column = header.column
  const sortable = !header.isPlaceholder && !!column.getCanSort?.()
  const sorted = sortable ? column.getIsSorted?.() : false
  const width = setSize ? header.getSize?.() : undefined
  const resizeHandler = setSize && column.getCanResize?.() ? header.getResizeHandler?.() : null

  function resizeByKey(e: React.KeyboardEvent) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
    e.preventDefault()
    const size = (header.getSize?.() ?? 0) + (e.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP)
    const { minSize = 60, maxSize = 1200 } = column.columnDef
    setSize?.(column.id, Math.min(maxSize, Math.max(minSize, size)))
  }

  return (
    <th scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined} style={width ? { width } : undefined}>
      {sortable ? (
        <button type="button" className="sort-button" onClick={column.getToggleSortingHandler?.()}>
          {children}
          <AdminIcon name={sorted === 'asc' ? 'sortUp' : sorted === 'desc' ? 'sortDown' : 'sortNone'} size={14} />
        </button>
      ) : (
        children
      )}
      {resizeHandler && (
        <button
          type="button"
          className="resize-handle"
          aria-label={t('admin.table.resize', { column: typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id })}
          data-resizing={column.getIsResizing?.()}
          onMouseDown={resizeHandler}
          onTouchStart={resizeHandler}
          onDoubleClick={() => column.resetSize?.()}
          onKeyDown={resizeByKey}
        />
      )}
    </th>
  )
}
