// Checking a locale doc typed as JSON text (spec §4 "Locale edit").

export type JsonCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; line: number | null }

/** The 1-based line of a character offset. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

export function checkLocaleJson(text: string): JsonCheck {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const message = (e as Error).message
    // Engines name the place differently: "(line 5 column 3)" or "at position 123".
    const lineCol = /line (\d+) column \d+/.exec(message)
    const position = /position (\d+)/.exec(message)
    const line = lineCol ? Number(lineCol[1]) : position ? lineAt(text, Number(position[1])) : null
    return { ok: false, message, line }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'not-object', line: null }
  return { ok: true, value: value as Record<string, unknown> }
}

/** The same doc, whatever the spacing: what "differs from the saved doc" compares. */
export const canonical = (value: unknown) => JSON.stringify(value)

export const pretty = (value: unknown) => JSON.stringify(value, null, 2) + '\n'
