// Ollama, local or hosted (integrations §3), through the `ollama` package.
import { Ollama, type Message } from 'ollama'
import { withJsonInstruction, parseJsonReply } from './jsonSchema'
import { ModelFailure, asMessages, collectText, embedder, guardedDeltas, type CallOptions, type ChatMessage, type ModelProvider } from './provider'

export interface OllamaConfig {
  host: string
  model: string
  /** Sent as a Bearer token, for hosted Ollama (https://ollama.com). */
  apiKey?: string
  /** How long Ollama keeps the model loaded after a call ("5m", seconds, 0 to unload). */
  keepAlive?: string | number
  /** The model for /api/embed (memory recall); no embeddings when unset. */
  embedModel?: string | null
}

/**
 * A client whose every request carries `signal`. ollama-js has no signal option and its own `iterator.abort()`
 * only exists once the response headers are in, which Ollama sends after loading the model; routing the signal
 * through `fetch` also cancels a request that is still waiting for them.
 */
function clientFor(config: OllamaConfig, signal: AbortSignal) {
  return new Ollama({
    host: config.host,
    headers: config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : undefined,
    fetch: async (input, init) => {
      try {
        return await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })
      } catch (error) {
        if (signal.aborted) throw error
        throw new ModelFailure(`Cannot reach Ollama at ${config.host}: ${(error as Error).message}`, { cause: error })
      }
    },
  })
}

/** ollama-js throws ResponseError (with status_code) for non-2xx answers and plain Errors for in-stream ones. */
function describeFailure(config: OllamaConfig, error: Error): ModelFailure {
  const status = (error as { status_code?: number }).status_code
  if (status === undefined) return new ModelFailure(`Ollama stream failed: ${error.message}`, { cause: error })
  const hint =
    status === 404 ? ` (pull it with "ollama pull ${config.model}" or set OLLAMA_MODEL)` : status === 401 || status === 403 ? ' (check OLLAMA_API_KEY)' : ''
  return new ModelFailure(`Ollama at ${config.host} answered ${status}: ${error.message}${hint}`, { cause: error, status })
}

// ollama-js sends Uint8Array images as base64 itself; its Node build would read a base64 *string* that happens to
// name an existing file from disk, so images are never handed over as strings.
function toOllamaMessage(message: ChatMessage): Message {
  return { role: message.role, content: message.content, images: message.images?.map((image) => image.data) }
}

export function createOllamaProvider(config: OllamaConfig): ModelProvider {
  const streamChat = (messages: ChatMessage[], opts: CallOptions = {}, format?: object) =>
    guardedDeltas(
      opts,
      async function* (signal) {
        const parts = await clientFor(config, signal).chat({
          model: config.model,
          messages: messages.map(toOllamaMessage),
          stream: true,
          format,
          keep_alive: config.keepAlive,
          options: { temperature: opts.temperature, num_predict: opts.maxTokens },
        })
        for await (const part of parts) {
          yield part.message.content
          if (part.done) opts.onUsage?.({ promptTokens: part.prompt_eval_count ?? 0, completionTokens: part.eval_count ?? 0 })
        }
      },
      (error) => describeFailure(config, error),
    )

  return {
    kind: 'ollama',
    model: config.model,
    streamChat: (messages, opts) => streamChat(messages, opts),
    complete: (prompt, opts) => collectText(streamChat(asMessages(prompt), opts)),
    async json<T>(prompt: string | ChatMessage[], schema: object, opts?: CallOptions) {
      return parseJsonReply<T>(await collectText(streamChat(withJsonInstruction(asMessages(prompt), schema), opts, schema)), schema)
    },
    ...(config.embedModel
      ? {
          embed: embedder(config.embedModel, async (input, opts) => {
            const signal = opts.signal ?? AbortSignal.timeout(30_000)
            try {
              return (await clientFor(config, signal).embed({ model: config.embedModel!, input, keep_alive: config.keepAlive })).embeddings
            } catch (error) {
              if (signal.aborted || error instanceof ModelFailure) throw error
              throw describeFailure({ ...config, model: config.embedModel! }, error as Error)
            }
          }),
        }
      : {}),
  }
}

/** The models an Ollama server has pulled, or null when it cannot be reached within `timeoutMs`. */
export async function listOllamaModels(config: Omit<OllamaConfig, 'model'>, timeoutMs: number): Promise<string[] | null> {
  try {
    const { models } = await clientFor({ ...config, model: '' }, AbortSignal.timeout(timeoutMs)).list()
    return models.map((m) => m.name)
  } catch {
    return null
  }
}
