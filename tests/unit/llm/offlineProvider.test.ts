import { describe, expect, test } from 'vitest'
import { createOfflineProvider, offlineChunks } from '../../../api/llm/offlineProvider'
import { formatPersonContext } from '../../../api/llm/personContext'
import { collectText, type ChatMessage } from '../../../api/llm/provider'

const offline = createOfflineProvider()

const system = (extra: Parameters<typeof formatPersonContext>[0] = {}): ChatMessage => ({
  role: 'system',
  content: `You are the user's ideal self.\n\n${formatPersonContext({
    name: 'Alex',
    idealSelf: 'calm, focused and kind to myself',
    goal: 'Finish my thesis this year',
    story: ['I grew up by the sea.'],
    ...extra,
  })}`,
})

/** The system prompt, then the user's messages each answered by an earlier reply. */
const chat = (...userTexts: string[]): ChatMessage[] => [
  system(),
  ...userTexts.flatMap((content, i): ChatMessage[] => [
    ...(i > 0 ? [{ role: 'assistant' as const, content: 'an earlier reply' }] : []),
    { role: 'user', content },
  ]),
]

async function streamed(messages: ChatMessage[]) {
  const chunks: string[] = []
  for await (const chunk of offline.streamChat(messages)) chunks.push(chunk)
  return chunks
}

describe('chat replies', () => {
  test('answer what was said without quoting it, use the person\'s data and end with a next-step question', async () => {
    const replies = [
      await offline.complete(chat('I keep putting off my thesis.')),
      await offline.complete(chat('I keep putting off my thesis.', 'It is due in March and I am scared.')),
      await offline.complete(chat('I keep putting off my thesis.', 'It is due in March and I am scared.', 'My advisor is patient with me though.')),
    ]
    const all = replies.join('\n')
    expect(all).toContain('Alex')
    expect(all).not.toContain('I keep putting off')
    expect(all).toContain('calm, focused and kind to yourself')
    expect(replies.every((reply) => reply.trim().endsWith('?'))).toBe(true)
  })

  test('are deterministic, and differ when the message differs', async () => {
    const a = await offline.complete(chat('I feel stuck at work.'))
    expect(await offline.complete(chat('I feel stuck at work.'))).toBe(a)
    expect(await collectText(offline.streamChat(chat('I feel stuck at work.')))).toBe(a)
    expect(await offline.complete(chat('My sister and I argued.'))).not.toBe(a)
  })

  test('stream in word-sized chunks, one character at a time in Chinese', async () => {
    const english = await streamed(chat('I feel stuck at work.'))
    expect(english.length).toBeGreaterThan(10)
    expect(english.every((chunk) => chunk.trim().split(/\s+/).length === 1 || chunk.trim() === '')).toBe(true)
    const chinese = await streamed(chat('我覺得工作卡住了'))
    expect(chinese.filter((chunk) => /\p{Script=Han}/u.test(chunk)).every((chunk) => Array.from(chunk).length === 1)).toBe(true)
    expect(offlineChunks('Hi  there 你好。ok\n\nnext').join('')).toBe('Hi  there 你好。ok\n\nnext')
  })

  test('answer in the language of the last user message', async () => {
    // Characters that only the Traditional, or only the Simplified, wording of the replies uses.
    const traditionalOnly = /[們這說聽謝記讓樣來麼對]/u
    const simplifiedOnly = /[们这说听谢记让样来么对]/u

    const traditional = await offline.complete(chat('Hello', '我最近壓力很大，不知道該怎麼辦'))
    expect(traditional).not.toContain('不知道該怎麼辦')
    expect(traditional).toMatch(/？$/)
    expect(traditional).toMatch(traditionalOnly)
    expect(traditional).not.toMatch(simplifiedOnly)

    const simplified = await offline.complete(chat('我最近压力很大，不知道该怎么办'))
    expect(simplified).not.toContain('不知道该怎么办')
    expect(simplified).toMatch(simplifiedOnly)
    expect(simplified).not.toMatch(traditionalOnly)

    const english = await offline.complete(chat('我最近壓力很大', 'Actually, let me write in English.'))
    expect(english).not.toMatch(/\p{Script=Han}/u)
    expect(english.trim().endsWith('?')).toBe(true)
  })

  test('fall back to the Language section when the message has no words', async () => {
    const messages: ChatMessage[] = [system({ language: 'zh-CN' }), { role: 'user', content: '👍' }]
    expect(await offline.complete(messages)).toMatch(/\p{Script=Han}/u)
  })

  test('greet when nobody has spoken yet, and ask about pictures they cannot see', async () => {
    expect(await offline.complete([system()])).toBe(`Hi Alex! I'm your ideal self — "calm, focused and kind to myself". What's on your mind today?`)
    const picture: ChatMessage = { role: 'user', content: '', images: [{ mimeType: 'image/png', data: new Uint8Array([1]) }] }
    expect(await offline.complete([system(), picture])).toContain('picture')
  })

  test('invite more when a message is too short to reflect on', async () => {
    const english = await offline.complete(chat('hi'))
    expect(english).toMatch(/tell me|talk about|like to hear|with you|listening|here/i)
    expect(english).not.toMatch(/\p{Script=Han}/u)
    const chinese = await offline.complete(chat('好的'))
    expect(chinese).toMatch(/\p{Script=Han}/u)
    expect(chinese.length).toBeLessThan(80)
  })

  test('work without any context at all', async () => {
    const reply = await offline.complete('I have an interview tomorrow')
    expect(reply).not.toContain('I have an interview tomorrow')
    expect(reply.length).toBeGreaterThan(60)
    expect(reply.trim().endsWith('?')).toBe(true)
  })

  test('stop when the signal aborts', async () => {
    const controller = new AbortController()
    const seen: string[] = []
    const error = await (async () => {
      for await (const chunk of offline.streamChat(chat('I feel stuck at work.'), { signal: controller.signal })) {
        seen.push(chunk)
        controller.abort()
      }
    })().catch((e: unknown) => e)
    expect(error).toBe(controller.signal.reason)
    expect(seen).toHaveLength(1)
  })
})

describe('json', () => {
  test('fills fields from the person context, prompt-like fields with a summary, others with the reply', async () => {
    const schema = {
      type: 'object',
      properties: {
        userName: { type: 'string' },
        idealSelfDescription: { type: 'string' },
        characterPrompt: { type: 'string' },
        message: { type: 'string' },
        isProcessCompleted: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['userName', 'idealSelfDescription', 'characterPrompt', 'message', 'isProcessCompleted', 'tags'],
    }
    const messages = chat('Tell me more about the sea.')
    const value = await offline.json<Record<string, unknown>>(messages, schema)
    expect(value).toEqual({
      userName: 'Alex',
      idealSelfDescription: 'calm, focused and kind to myself',
      characterPrompt: 'Name: Alex\nWants to become: calm, focused and kind to myself\nGoal: Finish my thesis this year\nStory: I grew up by the sea.',
      message: await offline.complete(messages),
      isProcessCompleted: false,
      tags: [],
    })
    expect(await offline.json(messages, schema)).toEqual(value)
  })
})
