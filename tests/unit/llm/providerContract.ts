// What every real provider must do the same way, run against its fake server by each provider's test file.
import { beforeEach, describe, expect, test } from 'vitest'
import { ModelFailure, type CallOptions, type ChatMessage, type ModelProvider } from '../../../api/llm/provider'
import { defaultReply, pause, type FakeModelServer } from '../../helpers/fakeOllama'

export const hi: ChatMessage[] = [{ role: 'user', content: 'hi' }]

export async function deltasOf(provider: ModelProvider, messages: ChatMessage[], opts?: CallOptions) {
  const seen: string[] = []
  for await (const delta of provider.streamChat(messages, opts)) seen.push(delta)
  return seen
}

/** The ModelFailure `run` rejects with (the test fails if it resolves or rejects with anything else). */
export async function failureOf(run: () => Promise<unknown>): Promise<ModelFailure> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ModelFailure)
  return error as ModelFailure
}

export function providerContract(fake: FakeModelServer, provider: () => ModelProvider) {
  beforeEach(() => {
    fake.requests.length = 0
    fake.reply(defaultReply)
  })

  describe('the provider contract', () => {
    test('deltas arrive in order; complete joins them and sends a string prompt as one user message', async () => {
      fake.reply({ chunks: ['Hel', 'lo', ' there'] })
      expect(await deltasOf(provider(), hi)).toEqual(['Hel', 'lo', ' there'])
      expect(await provider().complete('Say hello')).toBe('Hello there')
      expect(fake.chats()[1].body.messages).toEqual([{ role: 'user', content: 'Say hello' }])
    })

    test('an error mid-stream is a ModelFailure after the deltas before it were delivered', async () => {
      fake.reply({ chunks: ['one ', 'two ', 'three'], errorAfterChunks: 2, error: 'the runner crashed' })
      const seen: string[] = []
      const error = await failureOf(async () => {
        for await (const delta of provider().streamChat(hi)) seen.push(delta)
      })
      expect(seen).toEqual(['one ', 'two '])
      expect(error.code).toBe('BotResponseFailureException')
      expect(error.message).toContain('the runner crashed')
    })

    test('a stream that stops before saying it is complete is a ModelFailure', async () => {
      fake.reply({ chunks: ['cut ', 'short'], truncate: true })
      await failureOf(() => deltasOf(provider(), hi))
    })

    test('an HTTP error status is a ModelFailure with the status and the server message', async () => {
      fake.reply({ status: 500, error: 'out of memory' })
      const error = await failureOf(() => provider().complete('hi'))
      expect(error.status).toBe(500)
      expect(error.message).toContain('out of memory')
    })

    test('an empty reply is a ModelFailure', async () => {
      fake.reply({ chunks: [] })
      expect((await failureOf(() => provider().complete('hi'))).message).toContain('empty reply')
    })

    test('json rejects an answer that is not JSON with ModelFailure', async () => {
      fake.reply('Sure! Here is your plan: walk.')
      const schema = { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] }
      expect((await failureOf(() => provider().json('plan', schema))).message).toContain('valid JSON')
    })
  })

  describe('abort', () => {
    test('mid-stream: the upstream request is cancelled and the loop rejects with the abort reason', async () => {
      fake.reply({ text: 'a long and slow reply that never gets to finish at all', chunkDelayMs: 100 })
      const controller = new AbortController()
      const seen: string[] = []
      const error = await (async () => {
        for await (const delta of provider().streamChat(hi, { signal: controller.signal })) {
          seen.push(delta)
          controller.abort()
        }
      })().catch((e: unknown) => e)

      expect(error).not.toBeInstanceOf(ModelFailure)
      expect(error).toBe(controller.signal.reason)
      expect(seen).toHaveLength(1)
      expect(await fake.chats()[0].ended).toBe('aborted')
    })

    test('before the response headers arrive (a model still loading)', async () => {
      fake.reply(async () => {
        await pause(1500)
        return 'too late'
      })
      const error = await provider()
        .complete('hi', { signal: AbortSignal.timeout(100) })
        .catch((e: unknown) => e)
      expect((error as Error).name).toBe('TimeoutError')
      expect(await fake.chats()[0].ended).toBe('aborted')
    })

    test('leaving the loop early cancels the upstream request', async () => {
      fake.reply({ text: 'first second third fourth fifth', chunkDelayMs: 100 })
      for await (const delta of provider().streamChat(hi)) {
        expect(delta).toBe('first ')
        break
      }
      expect(await fake.chats()[0].ended).toBe('aborted')
    })
  })
}
