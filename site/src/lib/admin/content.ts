// What the content editor pages get from GET /content-editors/editable-contents[/{slug}].
import type { ContentDefinition, EditableField } from '../../../../api/content/definitions'
import type { ContentRow, ScalarValue } from '../../../../api/content/values'

/** A definition as the editor API shows it: its id is its slug. */
export type EditorDefinition = Omit<ContentDefinition, 'isPublic'> & { id: string }

export interface EditorContent {
  content: EditorDefinition & { contents: ContentRow[] }
  defaultValues: { values: Record<string, ScalarValue>; mappings: Record<string, string[]> }
}

/** A starting width for a field's column, by what it holds. */
export function defaultColumnSize(f: EditableField): number {
  switch (f.type) {
    case 'number': return 140
    case 'boolean': return 120
    case 'select': return 200
    case 'mapping-many': return 280
    case 'string': return (f.max ?? 0) > 120 ? 340 : 220
  }
}
