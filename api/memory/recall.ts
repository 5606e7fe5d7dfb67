// Recall: the memories most relevant to the person's new message, and the people of the graph it names, bounded by
// a token budget. Candidates come from three indexed lookups — full-text matches, memories about a named person,
// and the standing preferences — and are ranked here by text rank, the named people and recency.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import { estimateTokens } from '../chat/prompt'
import type { MemoryKind } from './memories'
import { anyTermQuery, queryTerms } from './searchText'
import { SIMILAR_FROM, similarMemoryRows } from './embeddings'

export interface RecalledMemory {
  id: string
  kind: MemoryKind
  text: string
  label: string
  personName: string | null
  relationNodeId: string | null
  updatedAt: Date
  score: number
}

export interface GraphPerson {
  id: string
  name: string
  types: string[]
}

export interface Recall {
  memories: RecalledMemory[]
  /** People of the graph the message names or a recalled memory is about. */
  people: GraphPerson[]
}

/** Room for memories in the system prompt: a small share of a small model's 4k context. */
export const MEMORY_TOKEN_BUDGET = 350
const MAX_MEMORIES = 12
const CANDIDATES = 60
const TEXT_POOL = 300
const SIMILAR_CANDIDATES = 20
const DAY_MS = 86_400_000

interface CandidateRow {
  id: string
  kind: MemoryKind
  text: string
  label: string
  person_name: string | null
  relation_node_id: string | null
  updated_at: Date
  /** About how many of the message's terms the memory contains (see `matchedTerms`). */
  matches: number
  /** Cosine similarity of its embedding to the message's, when both exist. */
  similarity?: number
}

/**
 * Whether `name` is mentioned in `text`: anywhere in Chinese; as a whole word in alphabetic text, capitalised as a
 * name is unless the person writes everything in lower case ("Will" is not named in "I will try").
 */
export function mentions(text: string, name: string): boolean {
  const n = name.trim()
  if (!n) return false
  if (/\p{Script=Han}/u.test(n)) return text.includes(n)
  const escaped = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const lowerCaseWriter = text === text.toLowerCase()
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, lowerCaseWriter ? 'iu' : 'u').test(text)
}

/**
 * The order memories go into the prompt. A memory counts only when the message is about it (shared words, a named
 * person) or it is a standing preference; recency breaks ties and lifts what was said lately.
 */
export function rankMemories(candidates: CandidateRow[], namedPeople: Set<string>, now: number): RecalledMemory[] {
  const ranked: RecalledMemory[] = []
  for (const row of candidates) {
    const aboutNamed = row.person_name !== null && namedPeople.has(row.person_name.toLowerCase())
    const meaning = (row.similarity ?? 0) >= SIMILAR_FROM ? (row.similarity! - 0.4) * 5 : 0
    const relevance = Math.min(row.matches, 3) * 1.5 + meaning + (aboutNamed ? 2 : 0) + (row.kind === 'preference' ? 0.6 : 0)
    if (relevance <= 0) continue
    const ageDays = Math.max(0, now - row.updated_at.getTime()) / DAY_MS
    const score = relevance + Math.exp(-ageDays / 30)
    ranked.push({
      id: row.id,
      kind: row.kind,
      text: row.text,
      label: row.label,
      personName: row.person_name,
      relationNodeId: row.relation_node_id,
      updatedAt: row.updated_at,
      score,
    })
  }
  return ranked.sort((a, b) => b.score - a.score || b.updatedAt.getTime() - a.updatedAt.getTime())
}

/** As many of the ranked memories as fit the budget, best first. */
export function withinBudget(ranked: RecalledMemory[], budget = MEMORY_TOKEN_BUDGET, max = MAX_MEMORIES): RecalledMemory[] {
  const taken: RecalledMemory[] = []
  let used = 0
  for (const memory of ranked) {
    const cost = estimateTokens(memory.text) + 3
    if (used + cost > budget) continue
    taken.push(memory)
    used += cost
    if (taken.length >= max) break
  }
  return taken
}

/**
 * ts_rank of an any-term query is the average over the query's terms, and one matched term in a short text ranks
 * about 0.0608 (the weight of an unlabelled lexeme); scaled back, it reads as a count of matched terms.
 */
const matchedTerms = (db: TransactionSql<{}>, query: string, termCount: number) =>
  db`ts_rank(m.search_vector, to_tsquery('english', ${query}), 0) * ${termCount} / 0.0608`

export async function graphPeople(sql: Sql | TransactionSql<{}>, userId: string, characterId: string): Promise<GraphPerson[]> {
  return sql<GraphPerson[]>`
    select n.id, n.name, e.types from relation_nodes n join relation_edges e on e.target_id = n.id
    where n.character_id = ${characterId} and n.user_id = ${userId} and not n.is_self`
}

/**
 * Text matches are ranked among the most recent TEXT_POOL of them: a word shared by thousands of memories then
 * costs a walk down the recency index instead of ranking every match, and a rare word is found through the
 * full-text index either way (the planner picks whichever is cheaper). Memories about a named person and the
 * standing preferences come in beside them.
 */
function candidateRows(db: TransactionSql<{}>, userId: string, query: string | null, termCount: number, names: string[]) {
  return db<CandidateRow[]>`
    (select m.id, m.kind, m.text, m.label, m.person_name, m.relation_node_id, m.updated_at,
       ${query ? matchedTerms(db, query, termCount) : db`0`}::float8 as matches
     from (select id from memories
           where user_id = ${userId} and ${query ? db`search_vector @@ to_tsquery('english', ${query})` : db`false`}
           order by updated_at desc limit ${TEXT_POOL}) pool
     join memories m on m.id = pool.id
     order by matches desc, m.updated_at desc limit ${CANDIDATES})
    union
    (select m.id, m.kind, m.text, m.label, m.person_name, m.relation_node_id, m.updated_at, 0::float8 as matches
     from memories m
     where m.user_id = ${userId} and m.person_name is not null
       and lower(m.person_name) in ${names.length ? db(names) : db`(null)`}
     order by m.updated_at desc limit ${CANDIDATES})
    union
    (select m.id, m.kind, m.text, m.label, m.person_name, m.relation_node_id, m.updated_at, 0::float8 as matches
     from memories m where m.user_id = ${userId} and m.kind = 'preference'
     order by m.updated_at desc limit 8)`
}

export async function recallMemories(
  sql: Sql,
  req: {
    userId: string
    characterId: string
    text: string
    budget?: number
    now?: number
    /** The message's embedding (embeddings.ts), when there is one: memories close in meaning join the candidates. */
    semantic?: { model: string; vector: number[] } | null
  },
): Promise<Recall> {
  const terms = queryTerms(req.text)
  // A prepared statement soon runs on a generic plan, which cannot know how many memories the words match and
  // was measured at 10x slower; these are planned for their own words every time.
  const { graph, named, candidates } = await sql.begin(async (tx) => {
    await tx`set local plan_cache_mode = force_custom_plan`
    const graph = await graphPeople(tx, req.userId, req.characterId)
    const named = graph.filter((p) => mentions(req.text, p.name))
    const namedNames = new Set(named.map((p) => p.name.toLowerCase()))
    // Names said that are not in the graph still find memories about that person ("my friend Jun").
    for (const term of terms) namedNames.add(term)
    const candidates = await candidateRows(tx, req.userId, terms.length ? anyTermQuery(terms) : null, terms.length, [...namedNames])
    if (req.semantic) {
      const close = (await similarMemoryRows(tx, req.userId, req.semantic, SIMILAR_CANDIDATES)).filter((r) => r.similarity >= SIMILAR_FROM)
      const similarity = new Map(close.map((r) => [r.id, r.similarity]))
      const missing = close.map((r) => r.id).filter((id) => !candidates.some((c) => c.id === id))
      if (missing.length)
        candidates.push(
          ...(await tx<CandidateRow[]>`
            select id, kind, text, label, person_name, relation_node_id, updated_at, 0::float8 as matches
            from memories where user_id = ${req.userId} and id in ${tx(missing)}`),
        )
      for (const c of candidates) c.similarity = similarity.get(c.id)
    }
    return { graph, named, candidates }
  })

  // The union keeps a row once per score it was found with; keep its best.
  const best = new Map<string, CandidateRow>()
  for (const row of candidates) if ((best.get(row.id)?.matches ?? -1) < row.matches) best.set(row.id, row)
  // The candidates came for any word that could be a name; the boost goes only to names the message really says.
  const said = new Set(named.map((p) => p.name.toLowerCase()))
  for (const row of best.values()) if (row.person_name && mentions(req.text, row.person_name)) said.add(row.person_name.toLowerCase())
  const memories = withinBudget(rankMemories([...best.values()], said, req.now ?? Date.now()), req.budget)

  const people = new Map(named.map((p) => [p.id, p]))
  for (const memory of memories) {
    const name = memory.personName?.toLowerCase()
    const person = graph.find((p) => p.id === memory.relationNodeId || (name && p.name.toLowerCase() === name))
    if (person) people.set(person.id, person)
  }
  return { memories, people: [...people.values()] }
}
