/**
 * Cleaned author names by where they appear in the buffer. Chats have few speakers, so a small
 * table indexed by the name's first characters finds a name seen before with one in-place
 * comparison, before anything is allocated.
 */
import { cleanField } from './fieldCleanup'

const SLOTS = 512

export interface AuthorNames {
  /**
   * Raw name (as UTF-16 units) and cleaned name per slot; a later name with the same slot
   * replaces the entry. Units in a typed array compare faster than through charCodeAt of a
   * string cut from the buffer (measured: about 8 % of a LINE parse).
   */
  raw: Uint16Array[]
  clean: string[]
  all: Map<string, string>
}

export function createAuthorNames(): AuthorNames {
  return { raw: new Array<Uint16Array>(SLOTS).fill(new Uint16Array(0)), clean: new Array<string>(SLOTS).fill(''), all: new Map() }
}

/** The cleaned name written at buffer[start, end). */
export function authorAt(names: AuthorNames, buffer: string, start: number, end: number): string {
  const slot = slotAt(buffer, start)
  const units = names.raw[slot]
  if (units.length === end - start && sameUnits(units, buffer, start)) return names.clean[slot]
  const raw = buffer.slice(start, end)
  const clean = cleanName(names, raw)
  names.raw[slot] = unitsOf(raw)
  names.clean[slot] = clean
  return clean
}

/** `cleanField(raw)`, made once per distinct raw name. */
export function cleanName(names: AuthorNames, raw: string): string {
  let clean = names.all.get(raw)
  if (clean === undefined) {
    clean = cleanField(raw)
    names.all.set(raw, clean)
  }
  return clean
}

/**
 * From the first three units, whatever follows the name (the same for every occurrence of it
 * in one export); past the end of the buffer charCodeAt gives NaN, which the mask makes 0.
 */
function slotAt(buffer: string, start: number): number {
  return ((buffer.charCodeAt(start) * 31 + buffer.charCodeAt(start + 1)) * 31 + buffer.charCodeAt(start + 2)) & (SLOTS - 1)
}

/** UTF-16 units, not code points: a name may hold emoji. */
function unitsOf(text: string): Uint16Array {
  const units = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
  return units
}

function sameUnits(units: Uint16Array, buffer: string, start: number): boolean {
  for (let i = 0; i < units.length; i++) if (units[i] !== buffer.charCodeAt(start + i)) return false
  return true
}
