// A stand-in OpenAI-compatible server (integrations §4): POST /v1/chat/completions streamed as SSE or answered
// whole, with OpenAI's error bodies. It serves the same scripts as fakeOllama.ts.
import { deltasOf, json, pause, replyEvents, startFakeModelServer, type FakeModelServer, type Script, type ScriptedReply } from './fakeOllama'

export interface FakeOpenAIOptions {
  /** Answers /v1/embeddings: a vector per input text. Default: no such endpoint (404). */
  embed?: (text: string) => number[]
  /** Accepted model names; any other gets OpenAI's model_not_found 404. */
  models?: string[]
  /** When set, requests need `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  /** False: reject `response_format: json_schema` with a 400, as servers without structured outputs do. */
  jsonSchema?: boolean
  reply?: Script
}

function openAIError(status: number, message: string, type: string, code: string | null, param: string | null = null) {
  return json(status, { error: { message, type, param, code } })
}

/** The text and image parts of a message, whichever content shape it uses. */
function partsOf(message: any): { text: string; images: number } {
  if (typeof message?.content === 'string') return { text: message.content, images: 0 }
  const parts: any[] = Array.isArray(message?.content) ? message.content : []
  return {
    text: parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join('\n'),
    images: parts.filter((p) => p.type === 'image_url').length,
  }
}

export function startFakeOpenAI(options: FakeOpenAIOptions = {}): FakeModelServer {
  const settings = { models: options.models ?? ['gpt-fake-mini'], reply: options.reply }
  let served = 0
  return startFakeModelServer('/v1/chat/completions', settings, async (entry, stream, { models, script }) => {
    if (options.apiKey && entry.headers.authorization !== `Bearer ${options.apiKey}`) {
      return openAIError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')
    }
    if (entry.method === 'POST' && entry.path === '/v1/embeddings' && options.embed) {
      const input: string[] = [entry.body?.input ?? []].flat()
      // Listed out of order on purpose: clients must place each vector by its index.
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: options.embed!(text) })).reverse()
      return json(200, { object: 'list', data, model: entry.body?.model, usage: { prompt_tokens: input.length, total_tokens: input.length } })
    }
    if (entry.method !== 'POST' || entry.path !== '/v1/chat/completions') {
      return openAIError(404, `Unknown request URL: ${entry.method} ${entry.path}.`, 'invalid_request_error', 'unknown_url')
    }
    const body = entry.body ?? {}
    if (!models.includes(body.model)) {
      return openAIError(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found')
    }
    const format = body.response_format
    if (format?.type === 'json_schema' && options.jsonSchema === false) {
      return openAIError(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", 'invalid_request_error', null, 'response_format')
    }

    const lastUser = [...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user')
    const { text, images } = partsOf(lastUser)
    const reply = await script.next({
      model: body.model,
      lastUserText: text,
      imageCount: images,
      schema: format?.type === 'json_schema' ? format.json_schema.schema : format?.type === 'json_object' ? {} : undefined,
      request: entry,
    })
    if (reply.status) return openAIError(reply.status, reply.error ?? 'scripted failure', 'server_error', null)

    const id = `chatcmpl-fake-${++served}`
    const created = Math.floor(Date.now() / 1000)
    if (body.stream !== true) {
      if (reply.errorAfterChunks !== undefined) return openAIError(500, reply.error ?? 'scripted failure', 'server_error', null)
      const deltas = deltasOf(reply)
      await pause((reply.chunkDelayMs ?? 0) * deltas.length)
      return json(200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: deltas.join('') }, finish_reason: 'stop' }],
        usage: usage(body, deltas.length),
      })
    }
    return stream(sse(reply, body, { id, object: 'chat.completion.chunk', created, model: body.model }), 'text/event-stream')
  })
}

function usage(body: any, completionTokens: number) {
  const promptTokens = (body.messages ?? []).reduce((n: number, m: any) => n + partsOf(m).text.split(/\s+/).length, 0)
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
}

async function* sse(reply: ScriptedReply, body: any, head: object): AsyncGenerator<string> {
  const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
  const chunk = (delta: object, finishReason: string | null = null) =>
    event({ ...head, choices: [{ index: 0, delta, finish_reason: finishReason }], usage: null })

  yield chunk({ role: 'assistant', content: '' })
  for await (const step of replyEvents(reply)) {
    if ('delta' in step) yield chunk({ content: step.delta })
    else if ('error' in step) yield event({ error: { message: step.error, type: 'server_error', param: null, code: null } })
    else {
      yield chunk({}, 'stop')
      if (body.stream_options?.include_usage) yield event({ ...head, choices: [], usage: usage(body, step.deltaCount) })
      yield 'data: [DONE]\n\n'
    }
  }
}
