// A stand-in Ollama server speaking the real wire format (integrations §3), for unit and end-to-end tests.
// Replies are scripted per test; the default echoes the last user message so end-to-end runs are predictable.
// The scripting types here are shared with fakeOpenAI.ts, which serves the same scripts in OpenAI's format.
import { memoryExtractorSchema } from '../../api/prompts/memoryExtractor.v1'
import { sampleFromSchema } from '../../api/llm/jsonSchema'

export interface RecordedRequest {
  method: string
  path: string
  /** Lower-cased names. */
  headers: Record<string, string>
  body: any
  /** Set when the client went away before the fake finished answering. */
  aborted: boolean
  /** Settles when the exchange is over: 'completed' once everything was written, 'aborted' when the client left first. */
  ended: Promise<'completed' | 'aborted'>
}

export interface ScriptedReply {
  /** The whole reply, sent in word-sized deltas. Ignored when `chunks` is given. */
  text?: string
  /** The exact deltas to send. */
  chunks?: string[]
  /** Pause before each delta: a slow model. */
  chunkDelayMs?: number
  /** Answer with this HTTP status and `error` as the message instead of a reply. */
  status?: number
  /** With `status`: the error message. With `errorAfterChunks`: the mid-stream error. */
  error?: string
  /** Send this many deltas, then a mid-stream error event and stop. */
  errorAfterChunks?: number
  /** Stop after the deltas without the closing event (Ollama's done line, OpenAI's finish_reason and [DONE]). */
  truncate?: boolean
}

/** What a chat request asks for, read out of whichever wire format carried it. */
export interface ReplyInput {
  model: string
  lastUserText: string
  imageCount: number
  /** The JSON schema the reply must follow, {} for plain JSON mode, undefined for text. */
  schema?: object
  request: RecordedRequest
}

export type Script = string | ScriptedReply | ((input: ReplyInput) => string | ScriptedReply | Promise<string | ScriptedReply>)

/**
 * `Reply to "<text>"` (plus the number of images, when any), or for JSON requests an object that fits the schema
 * with that same sentence in every string.
 */
export function defaultReply({ lastUserText, imageCount, schema }: ReplyInput): ScriptedReply {
  const sentence = `Reply to "${lastUserText}"${imageCount ? ` with ${imageCount} image${imageCount > 1 ? 's' : ''}` : ''}`
  if (!schema) return { text: sentence }
  const value = Object.keys(schema).length ? sampleFromSchema(schema, () => sentence) : { reply: sentence }
  return { text: JSON.stringify(value) }
}

// Memory extraction runs in the background after every saved reply, so it can ask the model between a test's
// queueing a one-off script and the call that script was meant for: it never takes a queued script.
const backgroundSchema = JSON.stringify(memoryExtractorSchema)

/** A changeable reply policy: queued one-off scripts first (except for background memory extraction), then the standing one. */
function scriptQueue(initial: Script = defaultReply) {
  let standing = initial
  const queued: Script[] = []
  return {
    set: (script: Script) => void (standing = script),
    queue: (...scripts: Script[]) => void queued.push(...scripts),
    async next(input: ReplyInput): Promise<ScriptedReply> {
      const background = input.schema !== undefined && JSON.stringify(input.schema) === backgroundSchema
      const script = (background ? undefined : queued.shift()) ?? standing
      const reply = typeof script === 'function' ? await script(input) : script
      return typeof reply === 'string' ? { text: reply } : reply
    },
  }
}

export function deltasOf(reply: ScriptedReply): string[] {
  return reply.chunks ?? (reply.text ?? '').match(/\S+\s*|\s+/g) ?? []
}

/** A scripted reply as wire-neutral events, paced by `chunkDelayMs`; each fake frames them in its own format. */
export async function* replyEvents(reply: ScriptedReply): AsyncGenerator<{ delta: string } | { error: string } | { deltaCount: number }> {
  const failing = reply.errorAfterChunks !== undefined
  const deltas = failing ? deltasOf(reply).slice(0, reply.errorAfterChunks) : deltasOf(reply)
  for (const delta of deltas) {
    await pause(reply.chunkDelayMs)
    yield { delta }
  }
  if (failing) yield { error: reply.error ?? 'scripted failure' }
  else if (!reply.truncate) yield { deltaCount: deltas.length }
}

/** JSON bodies parsed; anything else kept as text, so a malformed request shows up in the record instead of a crash. */
function parseBody(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return text
  }
}

/** Records a request and watches for the client leaving; `finish()` marks the exchange complete. */
async function record(request: Request, log: RecordedRequest[]) {
  const url = new URL(request.url)
  const text = await request.text()
  let settle!: (how: 'completed' | 'aborted') => void
  const entry: RecordedRequest = {
    method: request.method,
    path: url.pathname,
    headers: Object.fromEntries(request.headers),
    body: parseBody(text),
    aborted: false,
    ended: new Promise((resolve) => (settle = resolve)),
  }
  let over = false
  const end = (how: 'completed' | 'aborted') => {
    if (over) return
    over = true
    entry.aborted = how === 'aborted'
    settle(how)
  }
  request.signal.addEventListener('abort', () => end('aborted'))
  log.push(entry)
  return { entry, finish: () => end('completed'), abort: () => end('aborted') }
}

/** A streaming body from an async generator of lines; stops generating when the client goes away. */
function lineStream(lines: AsyncGenerator<string>, onDone: () => void, onCancel: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await lines.next()
      if (done) {
        controller.close()
        onDone()
      } else {
        controller.enqueue(encoder.encode(value))
      }
    },
    async cancel() {
      onCancel()
      await lines.return(undefined)
    },
  })
}

export type StreamReply = (lines: AsyncGenerator<string>, contentType: string) => Response

interface FakeState {
  /** The models the fake has; tests may edit the list. */
  models: string[]
  script: ReturnType<typeof scriptQueue>
}

/**
 * A loopback server on a free port that records every request, with the controls both fakes offer. `route`
 * answers; for a streamed answer it calls `stream`, so the record shows whether the client stayed to the end.
 */
export function startFakeModelServer(
  chatPath: string,
  options: { models: string[]; reply?: Script },
  route: (entry: RecordedRequest, stream: StreamReply, state: FakeState) => Promise<Response>,
) {
  const requests: RecordedRequest[] = []
  const state: FakeState = { models: [...options.models], script: scriptQueue(options.reply) }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request: Request) {
      const { entry, finish, abort } = await record(request, requests)
      let streaming = false
      const answer = await route(entry, (lines, contentType) => {
        streaming = true
        return new Response(lineStream(lines, finish, abort), { headers: { 'content-type': contentType } })
      }, state)
      if (!streaming) finish()
      return answer
    },
  })
  return {
    url: server.url.origin,
    requests,
    /** Edit to change which models the fake has. */
    models: state.models,
    /** Replace the standing script (see Script). */
    reply: state.script.set,
    /** Scripts for the next chat requests, one each, before the standing one applies again. */
    queueReplies: state.script.queue,
    /** Requests to the chat endpoint only. */
    chats: () => requests.filter((r) => r.path === chatPath),
    stop: () => server.stop(true),
  }
}

export type FakeModelServer = ReturnType<typeof startFakeModelServer>

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } })

export const pause = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

// Ollama treats a name without a tag as ":latest".
const withTag = (model: string) => (model.includes(':') ? model : `${model}:latest`)

export interface FakeOllamaOptions {
  /** Served by /api/tags and accepted by /api/chat. */
  models?: string[]
  /** When set, every request needs `Authorization: Bearer <apiKey>` (hosted Ollama). */
  apiKey?: string
  reply?: Script
  /** Answers /api/embed: a vector per input text. Default: no such endpoint (404, like a model that cannot embed). */
  embed?: (text: string) => number[] | Promise<number[]>
}

export function startFakeOllama(options: FakeOllamaOptions = {}): FakeModelServer {
  const settings = { models: options.models ?? ['llama3.2:1b'], reply: options.reply }
  return startFakeModelServer('/api/chat', settings, async (entry, stream, { models, script }) => {
    if (options.apiKey && entry.headers.authorization !== `Bearer ${options.apiKey}`) return json(401, { error: 'unauthorized' })
    if (entry.method === 'GET' && entry.path === '/api/tags') return json(200, { models: models.map(tagEntry) })
    if (entry.method === 'POST' && entry.path === '/api/embed' && options.embed) {
      const input: string[] = [entry.body?.input ?? []].flat()
      try {
        return json(200, { model: entry.body?.model, embeddings: await Promise.all(input.map((text) => options.embed!(text))) })
      } catch (error) {
        return json(500, { error: (error as Error).message })
      }
    }
    if (entry.method !== 'POST' || entry.path !== '/api/chat') return new Response('404 page not found', { status: 404 })

    const body = entry.body ?? {}
    const model = models.find((name) => withTag(name) === withTag(String(body.model ?? '')))
    if (!model) return json(404, { error: `model "${body.model}" not found, try pulling it first` })
    const lastUser = [...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user')
    const reply = await script.next({
      model,
      lastUserText: lastUser?.content ?? '',
      imageCount: lastUser?.images?.length ?? 0,
      schema: body.format === 'json' ? {} : body.format,
      request: entry,
    })
    if (reply.status) return json(reply.status, { error: reply.error ?? 'scripted failure' })

    const deltas = deltasOf(reply)
    if (body.stream === false) {
      if (reply.errorAfterChunks !== undefined) return json(500, { error: reply.error ?? 'scripted failure' })
      await pause((reply.chunkDelayMs ?? 0) * deltas.length)
      return json(200, { ...line(model, deltas.join('')), ...doneFields(deltas.length) })
    }
    return stream(ndjson(model, reply), 'application/x-ndjson')
  })
}

function tagEntry(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 1_300_000_000,
    digest: `sha256:${name.replace(/[^a-z0-9]/gi, '').padEnd(64, '0').slice(0, 64)}`,
    details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '1.2B', quantization_level: 'Q8_0' },
  }
}

function line(model: string, content: string) {
  return { model, created_at: new Date().toISOString(), message: { role: 'assistant', content }, done: false }
}

function doneFields(deltaCount: number) {
  return {
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000 * (deltaCount + 1),
    load_duration: 1_000_000,
    prompt_eval_count: 12,
    prompt_eval_duration: 500_000,
    eval_count: deltaCount,
    eval_duration: 1_000_000 * deltaCount,
  }
}

async function* ndjson(model: string, reply: ScriptedReply): AsyncGenerator<string> {
  for await (const event of replyEvents(reply)) {
    if ('delta' in event) yield `${JSON.stringify(line(model, event.delta))}\n`
    else if ('error' in event) yield `${JSON.stringify({ error: event.error })}\n`
    else yield `${JSON.stringify({ ...line(model, ''), ...doneFields(event.deltaCount) })}\n`
  }
}

/** An http URL where nothing listens (a port just released), for "cannot reach" cases. */
export function unusedUrl(): string {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const url = server.url.origin
  server.stop(true)
  return url
}
