// Where memory meets a chat turn: recall before the prompt is assembled, and the extraction job queued once the
// reply is saved. Both stay out of the reply's way: a recall failure sends the prompt without memories, and the
// job is queued after the outcome is known, without holding it up.
import type { Sql } from '../db/database'
import { enqueueExtraction, type ExchangeRef } from './extractJob'
import { recallMemories } from './recall'
import { queryEmbedding } from './embeddings'
import type { Embedder } from '../llm/provider'
import { NO_SOURCES, rememberedLines, replySources, type ReplySources } from './sources'

export interface ReplyRecall {
  remembered: string[]
  sources: ReplySources
}

export async function recallForReply(sql: Sql, userId: string, characterId: string, text: string, embed?: Embedder): Promise<ReplyRecall> {
  if (!text.trim()) return { remembered: [], sources: NO_SOURCES }
  try {
    const semantic = await queryEmbedding(sql, embed, text)
    const recall = await recallMemories(sql, { userId, characterId, text, semantic })
    return { remembered: rememberedLines(recall), sources: replySources(recall) }
  } catch (error) {
    console.error('Recalling memories failed; replying without them', error)
    return { remembered: [], sources: NO_SOURCES }
  }
}

/**
 * Once `outcome` is a saved reply, queues the exchange's memory extraction; the reply's own path never waits on it.
 * A turn that needed the help block is not mined for memories: nothing said in a crisis is kept beyond the chat.
 */
export function rememberExchange(
  deps: { sql: Sql; jobs?: { kick(): void } },
  exchange: ExchangeRef,
  outcome: Promise<{ ok: true; help: string | null } | { ok: false }>,
): void {
  outcome
    .then(async (result) => {
      if (!result.ok || result.help) return
      await enqueueExtraction(deps.sql, exchange)
      deps.jobs?.kick()
    })
    .catch((error) => console.error('Queueing memory extraction failed', error))
}
