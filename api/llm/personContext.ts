// What the system prompt tells a model about the person, in a fixed layout the offline provider can read back.
// Prompt templates include `formatPersonContext(...)`; real models read it as plain text, and with no model the
// offline provider builds its replies from it (DESIGN §6: "composed from the user's own onboarding data").
import type { Language } from './language'

export interface PersonContext {
  name?: string
  /** The person they want to become, in their own words. */
  idealSelf?: string
  /** What they are working towards right now. */
  goal?: string
  /** Onboarding story answers, oldest first. */
  story?: string[]
  /** People in their life, e.g. "Mei (sister)". */
  people?: string[]
  /** What they told the companion before and the reply may draw on (recalled memories). */
  remembered?: string[]
  /** The language to answer in when the message itself does not show one. */
  language?: Language
}

const TITLES = {
  name: 'Name',
  idealSelf: 'Ideal self',
  goal: 'Goal',
  story: 'Story',
  people: 'People',
  remembered: 'Remembered',
  language: 'Language',
} as const satisfies Record<keyof PersonContext, string>

type Field = keyof typeof TITLES
const LIST_FIELDS: Field[] = ['story', 'people', 'remembered']
const LANGUAGES: Language[] = ['en-US', 'zh-TW', 'zh-CN']

/**
 * One "## Title" section per known field; a section runs to the next "## " heading, so put the block at the end
 * of a message or follow it with another heading. List entries are "- " lines; an entry's further lines are indented by
 * two spaces so an answer with line breaks stays one entry.
 */
export function formatPersonContext(context: PersonContext): string {
  const sections: string[] = []
  for (const [field, title] of Object.entries(TITLES) as [Field, string][]) {
    const value = context[field]
    if (value === undefined || value.length === 0) continue
    const body = Array.isArray(value) ? value.map((entry) => `- ${entry.trim().replace(/\n/g, '\n  ')}`).join('\n') : value.trim()
    sections.push(`## ${title}\n${body}`)
  }
  return sections.join('\n\n')
}

/**
 * Reads the sections of `formatPersonContext` out of a larger text. `rest` is everything else (other text and
 * unknown sections), e.g. what the person actually wrote when the sections share a message with it.
 */
export function splitPersonContext(text: string): { context: PersonContext; rest: string } {
  const byTitle = new Map(Object.entries(TITLES).map(([field, title]) => [title.toLowerCase(), field as Field]))
  const bodies = new Map<Field, string[]>()
  const rest: string[] = []
  let current: string[] | null = null
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line)
    const field = heading && byTitle.get(heading[1].toLowerCase())
    if (field) {
      current = []
      bodies.set(field, current)
    } else if (heading) {
      current = null
      rest.push(line)
    } else {
      ;(current ?? rest).push(line)
    }
  }

  const context: PersonContext = {}
  for (const [field, lines] of bodies) {
    const body = lines.join('\n').trim()
    if (!body) continue
    if (LIST_FIELDS.includes(field)) {
      const entries = body.split(/\n(?=- )/).map((entry) => entry.replace(/^- /, '').replace(/\n {2}/g, '\n').trim())
      context[field as 'story' | 'people' | 'remembered'] = entries.filter(Boolean)
    } else if (field === 'language') {
      const language = LANGUAGES.find((l) => l.toLowerCase() === body.toLowerCase())
      if (language) context.language = language
    } else {
      context[field as 'name' | 'idealSelf' | 'goal'] = body
    }
  }
  return { context, rest: rest.join('\n').trim() }
}
