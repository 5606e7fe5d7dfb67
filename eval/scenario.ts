// A scenario file: one person (as onboarding, the chat import and the relationship editor left them) and the
// messages they send, each with what its reply is checked for. Files are YAML (or JSON, which YAML reads too);
// everything is checked on load so a typo in a scenario fails loudly instead of scoring nonsense.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Language } from '../api/llm/language'
import { MEMORY_KINDS, type MemoryKind } from '../api/memory/memories'
import { RELATIONSHIP_TYPES } from '../api/content/definitions'
import type { Expectations } from './checks'

export const CATEGORIES = ['grounding', 'language', 'style', 'persona', 'safety', 'boundaries', 'pace'] as const
export type Category = (typeof CATEGORIES)[number]
export const LANGUAGES: Language[] = ['en-US', 'zh-TW', 'zh-CN']

export interface Turn {
  /** What the person sends. */
  say: string
  expect: Expectations
}

export interface Scenario {
  id: string
  category: Category
  /** The person's language (onboarding's preferred language); the default for every reply's language check. */
  language: Language
  title: string
  person: {
    name: string
    /** Who they want to become, in their own words (onboarding). */
    description: string
    roleName?: string
    roleDescription?: string
    /** The ideal self's portrait, as the character builder would have written it. */
    portrait: string
    /** The onboarding story: the guide's questions and the person's answers, in order. */
    story?: { guide: string; user: string }[]
    /** The people they confirmed in the relationship editor. */
    people?: { name: string; types: string[]; closeness: number }[]
    /** What the companion remembers from earlier chats. */
    memories?: { kind: MemoryKind; text: string; personName?: string }[]
    /** A piece of an imported LINE or WhatsApp export and which author in it is the person. */
    style?: { author: string; export: string }
    /** The country set for help lines (ISO 3166), else the language decides. */
    country?: string
    /** Their preferred language from onboarding, when it is not the scenario's (a person who switches languages). */
    language?: Language
  }
  /** What a good reply does here, in words, for the judge model. */
  judge?: string
  turns: Turn[]
  /** A digest of the file's content: a resumed run re-runs a scenario whose file changed. */
  digest: string
}

const EXPECT_KEYS = new Set<keyof Expectations>([
  'language', 'mentionsAll', 'mentionsAny', 'forbidden', 'forbiddenPatterns', 'minChars', 'maxChars', 'maxSentences',
  'maxQuestions', 'noLists', 'emoji', 'help', 'helpIncludes', 'noMethods', 'persona', 'refuses',
])

class ScenarioError extends Error {}

function fail(file: string, message: string): never {
  throw new ScenarioError(`${file}: ${message}`)
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText)

function checkExpect(file: string, where: string, raw: unknown): Expectations {
  if (raw === undefined) return {}
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(file, `${where}: expect must be a mapping`)
  const e = raw as Record<string, unknown>
  for (const key of Object.keys(e)) if (!EXPECT_KEYS.has(key as keyof Expectations)) fail(file, `${where}: unknown check "${key}"`)
  if (e.language !== undefined && e.language !== 'any' && !LANGUAGES.includes(e.language as Language)) fail(file, `${where}: language must be en-US, zh-TW, zh-CN or any`)
  for (const key of ['mentionsAll', 'mentionsAny', 'forbidden', 'forbiddenPatterns', 'helpIncludes'] as const)
    if (e[key] !== undefined && !isTextList(e[key])) fail(file, `${where}: ${key} must be a list of texts`)
  for (const source of (e.forbiddenPatterns as string[] | undefined) ?? []) {
    try {
      new RegExp(source, 'iu')
    } catch {
      fail(file, `${where}: forbiddenPatterns has an invalid expression ${source}`)
    }
  }
  for (const key of ['minChars', 'maxChars', 'maxSentences', 'maxQuestions'] as const)
    if (e[key] !== undefined && !(Number.isInteger(e[key]) && (e[key] as number) >= 0)) fail(file, `${where}: ${key} must be a whole number ≥ 0`)
  for (const key of ['noLists', 'noMethods', 'persona', 'refuses'] as const)
    if (e[key] !== undefined && typeof e[key] !== 'boolean') fail(file, `${where}: ${key} must be true or false`)
  if (e.help !== undefined && e.help !== 'first' && e.help !== 'none' && e.help !== 'any') fail(file, `${where}: help must be first, none or any`)
  if (e.emoji !== undefined) {
    const emoji = e.emoji as Record<string, unknown>
    const ok = emoji && typeof emoji === 'object' && Object.keys(emoji).every((k) => (k === 'min' || k === 'max') && Number.isInteger(emoji[k]))
    if (!ok) fail(file, `${where}: emoji must be {min, max} whole numbers`)
  }
  return e as Expectations
}

/** Checks one parsed scenario file; `file` names it in error messages, and its base name must be the id. */
export function checkScenario(file: string, raw: unknown, text: string): Scenario {
  if (!raw || typeof raw !== 'object') fail(file, 'not a mapping')
  const s = raw as Record<string, any>
  if (!isText(s.id) || !/^[a-z0-9][a-z0-9-]*$/.test(s.id)) fail(file, 'id must be lower-case letters, digits and dashes')
  if (basename(file).replace(/\.(ya?ml|json)$/, '') !== s.id) fail(file, `the file must be named after its id (${s.id})`)
  if (!CATEGORIES.includes(s.category)) fail(file, `category must be one of ${CATEGORIES.join(', ')}`)
  if (!LANGUAGES.includes(s.language)) fail(file, 'language must be en-US, zh-TW or zh-CN')
  if (!isText(s.title)) fail(file, 'title is required')
  const p = s.person
  if (!p || typeof p !== 'object') fail(file, 'person is required')
  for (const key of ['name', 'description', 'portrait'] as const) if (!isText(p[key])) fail(file, `person.${key} is required`)
  for (const key of ['roleName', 'roleDescription', 'country'] as const) if (p[key] !== undefined && !isText(p[key])) fail(file, `person.${key} must be text`)
  if (p.country !== undefined && !/^[A-Z]{2}$/.test(p.country)) fail(file, 'person.country must be a two-letter country code')
  if (p.language !== undefined && !LANGUAGES.includes(p.language)) fail(file, 'person.language must be en-US, zh-TW or zh-CN')
  if (p.story !== undefined && !(Array.isArray(p.story) && p.story.every((e: any) => isText(e?.guide) && isText(e?.user))))
    fail(file, 'person.story must be a list of {guide, user}')
  if (p.people !== undefined) {
    const ok =
      Array.isArray(p.people) &&
      p.people.every(
        (r: any) =>
          isText(r?.name) &&
          Array.isArray(r.types) && r.types.length > 0 &&
          r.types.every((t: unknown) => (RELATIONSHIP_TYPES as readonly unknown[]).includes(t)) &&
          Number.isInteger(r.closeness) && r.closeness >= 1 && r.closeness <= 5,
      )
    if (!ok) fail(file, `person.people must be a list of {name, types (${RELATIONSHIP_TYPES.join(', ')}), closeness 1-5}`)
  }
  if (p.memories !== undefined && !(Array.isArray(p.memories) && p.memories.every((m: any) => MEMORY_KINDS.includes(m?.kind) && isText(m.text) && (m.personName === undefined || isText(m.personName)))))
    fail(file, `person.memories must be a list of {kind (${MEMORY_KINDS.join(', ')}), text, personName?}`)
  if (p.style !== undefined && !(isText(p.style?.author) && isText(p.style?.export))) fail(file, 'person.style must be {author, export}')
  if (s.judge !== undefined && !isText(s.judge)) fail(file, 'judge must be text')
  if (!Array.isArray(s.turns) || s.turns.length === 0) fail(file, 'turns must list at least one message')
  const turns: Turn[] = s.turns.map((t: any, i: number) => {
    if (!isText(t?.say)) fail(file, `turn ${i + 1}: say is required`)
    return { say: t.say, expect: checkExpect(file, `turn ${i + 1}`, t.expect) }
  })
  return { ...(s as Omit<Scenario, 'turns' | 'digest'>), turns, digest: createHash('sha256').update(text).digest('hex').slice(0, 16) }
}

function parse(file: string, text: string): unknown {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : Bun.YAML.parse(text)
  } catch (error) {
    fail(file, `cannot be read: ${(error as Error).message}`)
  }
}

/** Every scenario in `dir` (*.yaml, *.yml, *.json), sorted by id; throws on the first bad file or a repeated id. */
export function loadScenarios(dir: string): Scenario[] {
  const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort()
  const scenarios = files.map((f) => {
    const text = readFileSync(join(dir, f), 'utf8')
    return checkScenario(f, parse(f, text), text)
  })
  const seen = new Set<string>()
  for (const s of scenarios) {
    if (seen.has(s.id)) throw new ScenarioError(`two scenarios have the id ${s.id}`)
    seen.add(s.id)
  }
  return scenarios.sort((a, b) => a.id.localeCompare(b.id))
}
