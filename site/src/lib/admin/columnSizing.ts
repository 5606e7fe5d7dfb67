// Column widths of a content table, remembered per slug (spec §9: saved 300 ms after resizing stops).
import type { ColumnSizingState } from '@tanstack/react-table'

export const RESIZE_SAVE_DELAY_MS = 300
const keyOf = (slug: string) => `admin-column-sizing:${slug}`

export function loadColumnSizing(slug: string): ColumnSizingState {
  try {
    const saved = JSON.parse(localStorage.getItem(keyOf(slug)) ?? '{}')
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {}
  } catch {
    return {}
  }
}

export function saveColumnSizing(slug: string, sizing: ColumnSizingState) {
  try {
    localStorage.setItem(keyOf(slug), JSON.stringify(sizing))
  } catch {
    // Storage full or refused: the widths last for this visit only.
  }
}
