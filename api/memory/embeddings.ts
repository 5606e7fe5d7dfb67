// Memories by meaning: embeddings from the configured model, kept in memory_embeddings where the database has
// pgvector (sql/0011_memories.sql). Everything here is optional — no embedding model, no pgvector, or a model
// that fails or is slow all leave recall to text search.
import type { TransactionSql } from 'postgres'
import type { Sql } from '../db/database'
import type { Embedder } from '../llm/provider'

type Db = Sql | TransactionSql<{}>

/** How long a reply may wait for the message's embedding before recall goes ahead without it. */
export const QUERY_EMBED_TIMEOUT_MS = 400
/** Cosine similarity from which a memory counts as about the same thing as the message. */
export const SIMILAR_FROM = 0.55

const ready = new WeakMap<object, Promise<boolean>>()

/** Whether this database keeps embeddings (checked once per connection pool). */
export function embeddingsStored(sql: Sql): Promise<boolean> {
  let known = ready.get(sql)
  if (!known) {
    known = sql<{ ok: boolean }[]>`select to_regclass('memory_embeddings') is not null as ok`.then(([r]) => r.ok)
    ready.set(sql, known)
  }
  return known
}

/** pgvector's text form; numbers only, so nothing in it is SQL. */
export const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`

/** Embeds the given memories of a person as they read now and stores the vectors. */
export async function embedMemories(sql: Sql, embed: Embedder, userId: string, ids: string[], signal?: AbortSignal): Promise<number> {
  if (!ids.length || !(await embeddingsStored(sql))) return 0
  const rows = await sql<{ id: string; text: string }[]>`select id, text from memories where user_id = ${userId} and id in ${sql(ids)}`
  if (!rows.length) return 0
  const vectors = await embed(rows.map((r) => r.text), { signal })
  for (const [i, row] of rows.entries())
    await sql`
      insert into memory_embeddings (memory_id, user_id, model, text, embedding)
      select ${row.id}, ${userId}, ${embed.model}, ${row.text}, ${vectorLiteral(vectors[i])}::vector
      where exists (select 1 from memories where id = ${row.id} and user_id = ${userId})
      on conflict (memory_id) do update set model = excluded.model, text = excluded.text, embedding = excluded.embedding`
  return rows.length
}

/** The message's vector, or null when there is no model, no pgvector, or it took too long. */
export async function queryEmbedding(sql: Sql, embed: Embedder | undefined, text: string): Promise<{ model: string; vector: number[] } | null> {
  if (!embed || !text.trim() || !(await embeddingsStored(sql))) return null
  try {
    const [vector] = await embed([text], { signal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS) })
    return { model: embed.model, vector }
  } catch {
    return null
  }
}

/**
 * The person's memories closest in meaning to `vector`, as recall candidates with their similarity. Only vectors of
 * the same model, of the text the memory has now, and of the same length count.
 */
export function similarMemoryRows(db: Db, userId: string, query: { model: string; vector: number[] }, limit: number) {
  const literal = vectorLiteral(query.vector)
  return db<{ id: string; similarity: number }[]>`
    select e.memory_id as id, (1 - (e.embedding <=> ${literal}::vector))::float8 as similarity
    from memory_embeddings e join memories m on m.id = e.memory_id and m.text = e.text
    where e.user_id = ${userId} and e.model = ${query.model} and vector_dims(e.embedding) = ${query.vector.length}
    order by e.embedding <=> ${literal}::vector
    limit ${limit}`
}
