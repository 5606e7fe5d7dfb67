// Any OpenAI-compatible chat-completions endpoint (integrations §4): OpenAI, Ollama's /v1, vLLM, LM Studio, …
import { parseJsonReply, withJsonInstruction } from './jsonSchema'
import { ModelFailure, asMessages, collectText, embedder, guardedDeltas, type CallOptions, type ChatMessage, type ModelProvider } from './provider'
import { readSseData } from './sse'

export interface OpenAIConfig {
  /** With or without the trailing /v1. */
  baseUrl: string
  apiKey?: string
  model: string
  /** The model for /v1/embeddings (memory recall); no embeddings when unset. */
  embedModel?: string | null
}

type ResponseFormat = { type: 'json_schema'; json_schema: { name: string; schema: object; strict: false } } | { type: 'json_object' }

export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  return `${/\/v1$/.test(base) ? base : `${base}/v1`}/chat/completions`
}

function toOpenAIMessage({ role, content, images }: ChatMessage) {
  if (!images?.length) return { role, content }
  return {
    role,
    content: [
      { type: 'text', text: content },
      ...images.map((image) => ({
        type: 'image_url',
        image_url: { url: `data:${image.mimeType};base64,${Buffer.from(image.data).toString('base64')}` },
      })),
    ],
  }
}

/** OpenAI's `{error:{message}}`, or the `{error:"…"}` / plain text some compatible servers send instead. */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body)
    const error = parsed?.error ?? parsed
    const message = typeof error === 'string' ? error : error?.message
    if (typeof message === 'string' && message) return message
  } catch {
    // not JSON: the text itself is the best description there is
  }
  return body.trim().slice(0, 300) || 'no details'
}

export function createOpenAIProvider(config: OpenAIConfig): ModelProvider {
  const url = chatCompletionsUrl(config.baseUrl)

  async function* deltas(messages: ChatMessage[], opts: CallOptions, signal: AbortSignal, responseFormat?: ResponseFormat) {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: config.model,
          messages: messages.map(toOpenAIMessage),
          stream: true,
          stream_options: { include_usage: true },
          temperature: opts.temperature,
          max_tokens: opts.maxTokens,
          response_format: responseFormat,
        }),
      })
    } catch (error) {
      if (signal.aborted) throw error
      throw new ModelFailure(`Cannot reach the OpenAI-compatible endpoint ${url}: ${(error as Error).message}`, { cause: error })
    }
    if (!response.ok || !response.body) {
      const detail = errorMessage(await response.text())
      throw new ModelFailure(`The OpenAI-compatible endpoint answered ${response.status}: ${detail}`, { status: response.status })
    }

    let finished = false
    for await (const data of readSseData(response.body)) {
      if (data === '[DONE]') return
      let chunk
      try {
        chunk = JSON.parse(data)
      } catch {
        throw new ModelFailure(`The OpenAI-compatible endpoint sent an unreadable event: ${data.slice(0, 200)}`)
      }
      if (chunk.error) throw new ModelFailure(`The OpenAI-compatible endpoint failed mid-reply: ${errorMessage(data)}`)
      if (chunk.usage) opts.onUsage?.({ promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 })
      const choice = chunk.choices?.[0]
      if (typeof choice?.delta?.content === 'string') yield choice.delta.content
      if (choice?.finish_reason) finished = true
    }
    // Some servers omit [DONE]; a finish_reason is then the only sign the reply is whole.
    if (!finished) throw new ModelFailure('The OpenAI-compatible stream ended before the reply was complete')
  }

  const streamChat = (messages: ChatMessage[], opts: CallOptions = {}, responseFormat?: ResponseFormat) =>
    guardedDeltas(
      opts,
      (signal) => deltas(messages, opts, signal, responseFormat),
      (error) => new ModelFailure(`The OpenAI-compatible stream failed: ${error.message}`, { cause: error }),
    )

  return {
    kind: 'openai',
    model: config.model,
    streamChat: (messages, opts) => streamChat(messages, opts),
    complete: (prompt, opts) => collectText(streamChat(asMessages(prompt), opts)),
    async json<T>(prompt: string | ChatMessage[], schema: object, opts?: CallOptions) {
      const messages = withJsonInstruction(asMessages(prompt), schema)
      let text: string
      try {
        text = await collectText(streamChat(messages, opts, { type: 'json_schema', json_schema: { name: 'reply', schema, strict: false } }))
      } catch (error) {
        // Servers without structured outputs reject json_schema up front; JSON mode plus the schema in the prompt
        // is the best they offer.
        if (!(error instanceof ModelFailure) || (error.status !== 400 && error.status !== 422)) throw error
        text = await collectText(streamChat(messages, opts, { type: 'json_object' }))
      }
      return parseJsonReply<T>(text, schema)
    },
    ...(config.embedModel
      ? {
          embed: embedder(config.embedModel, async (input, opts) => {
            const embeddingsUrl = url.replace(/\/chat\/completions$/, '/embeddings')
            let response: Response
            try {
              response = await fetch(embeddingsUrl, {
                method: 'POST',
                signal: opts.signal ?? AbortSignal.timeout(30_000),
                headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
                body: JSON.stringify({ model: config.embedModel, input }),
              })
            } catch (error) {
              if (opts.signal?.aborted) throw error
              throw new ModelFailure(`Cannot reach the OpenAI-compatible endpoint ${embeddingsUrl}: ${(error as Error).message}`, { cause: error })
            }
            const body = await response.text()
            if (!response.ok) throw new ModelFailure(`The OpenAI-compatible endpoint answered ${response.status}: ${errorMessage(body)}`, { status: response.status })
            try {
              return (JSON.parse(body).data as { index: number; embedding: number[] }[]).sort((a, b) => a.index - b.index).map((d) => d.embedding)
            } catch {
              throw new ModelFailure('The OpenAI-compatible endpoint answered embeddings that cannot be read')
            }
          }),
        }
      : {}),
  }
}
