// The contract every model backend fulfils (DESIGN §6). Callers depend on this file only.

export interface ChatImage {
  mimeType: string
  data: Uint8Array
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
  images?: ChatImage[]
}

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
}

export interface CallOptions {
  /**
   * Aborting cancels the upstream HTTP request at once (also while the model is still loading) and the call
   * rejects with `signal.reason` — never with ModelFailure — so `signal.aborted` tells the caller it was them.
   */
  signal?: AbortSignal
  temperature?: number
  maxTokens?: number
  /** Called once per call when the backend reports token counts (not the offline provider). */
  onUsage?: (usage: TokenUsage) => void
}

export type ProviderKind = 'ollama' | 'openai' | 'offline'

export interface ModelProvider {
  readonly kind: ProviderKind
  /** The model that answers; null for the offline provider. */
  readonly model: string | null
  /**
   * Yields text deltas in order. Ends normally only when the backend said the reply is complete and it was
   * not empty; everything else rejects with ModelFailure (or the abort reason, see CallOptions.signal).
   * Breaking out of the loop cancels the upstream request.
   */
  streamChat(messages: ChatMessage[], opts?: CallOptions): AsyncIterable<string>
  /** The whole reply as one string. A string prompt is sent as a single user message. */
  complete(prompt: string | ChatMessage[], opts?: CallOptions): Promise<string>
  /** A reply constrained to a JSON schema, parsed and checked against it (ModelFailure when it does not fit). */
  json<T>(prompt: string | ChatMessage[], schema: object, opts?: CallOptions): Promise<T>
  /** Present when an embedding model is configured (EMBEDDING_MODEL): one vector per text, in order. */
  embed?: Embedder
}

export interface Embedder {
  readonly model: string
  (texts: string[], opts?: CallOptions): Promise<number[][]>
}

/** Checks what an embedding endpoint answered: one vector per text, all of one length. */
function checkEmbeddings(vectors: unknown, count: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count) throw new ModelFailure('The embedding model did not answer one vector per text')
  const size = (vectors[0] as unknown[] | undefined)?.length ?? 0
  for (const v of vectors)
    if (!Array.isArray(v) || v.length !== size || size === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new ModelFailure('The embedding model answered vectors that are empty, uneven or not numbers')
  return vectors as number[][]
}

export function embedder(model: string, run: (texts: string[], opts: CallOptions) => Promise<unknown>): Embedder {
  const embed = async (texts: string[], opts: CallOptions = {}) => (texts.length ? checkEmbeddings(await run(texts, opts), texts.length) : [])
  return Object.assign(embed, { model })
}

/** Any model-side failure. The API answers it as `BotResponseFailureException` (spec §8). */
export class ModelFailure extends Error {
  readonly code = 'BotResponseFailureException'
  /** The upstream HTTP status, when the backend answered with one. */
  readonly status?: number

  constructor(message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, { cause: options.cause })
    this.name = 'ModelFailure'
    this.status = options.status
  }
}

export function asMessages(prompt: string | ChatMessage[]): ChatMessage[] {
  return typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : prompt
}

export async function collectText(deltas: AsyncIterable<string>): Promise<string> {
  let text = ''
  for await (const delta of deltas) text += delta
  return text
}

/**
 * The shared shape of a real provider's streamChat: one upstream signal per call (fired by the caller's abort and
 * when the loop ends, so a loop left early never leaves an HTTP request open), every error mapped by `describe`
 * into ModelFailure unless the caller aborted, and an empty reply treated as a failure.
 */
export async function* guardedDeltas(
  opts: CallOptions,
  open: (signal: AbortSignal) => AsyncIterable<string>,
  describe: (error: Error) => ModelFailure,
): AsyncGenerator<string> {
  const own = new AbortController()
  const signal = opts.signal ? AbortSignal.any([opts.signal, own.signal]) : own.signal
  let produced = false
  try {
    for await (const delta of open(signal)) {
      if (!delta) continue
      produced = true
      yield delta
    }
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason
    if (error instanceof ModelFailure) throw error
    throw describe(error instanceof Error ? error : new Error(String(error)))
  } finally {
    own.abort()
  }
  if (!produced) throw new ModelFailure('The model returned an empty reply')
}
