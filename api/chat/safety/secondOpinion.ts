// A model's second opinion on a message the rules find uncertain (risk words without clear intent). One bounded
// call: it may turn "uncertain" into a crisis, never a rules' crisis into nothing, and it never delays a reply by
// more than its timeout. Nothing of the message is logged.
import type { ChatMessage, ModelProvider } from '../../llm/provider'

export const SECOND_OPINION_TIMEOUT_MS = 2000

const SCHEMA = {
  type: 'object',
  properties: {
    risk: { type: 'boolean' },
  },
  required: ['risk'],
  additionalProperties: false,
}

const INSTRUCTION =
  'You screen messages sent to a companion chat app for suicide or self-harm risk. Answer risk=true when the latest message, read with the previous one, expresses a wish to die, thoughts of suicide or self-harm, a plan, preparations, intent, a question about methods, or feeling like a burden or that life is not worth living. Answer risk=false for figures of speech ("this exam is killing me"), jokes, denials, fiction, study, news and grief about someone else. Reply with JSON only.'

export async function secondOpinion(provider: ModelProvider, text: string, previous?: string): Promise<boolean> {
  if (provider.kind === 'offline') return false
  const messages: ChatMessage[] = [
    { role: 'system', content: INSTRUCTION },
    { role: 'user', content: JSON.stringify({ previousMessage: previous ?? null, latestMessage: text }) },
  ]
  try {
    const verdict = await provider.json<{ risk: boolean }>(messages, SCHEMA, {
      signal: AbortSignal.timeout(SECOND_OPINION_TIMEOUT_MS),
      temperature: 0,
      maxTokens: 20,
    })
    return verdict.risk === true
  } catch (error) {
    console.warn(`Crisis second opinion unavailable (${error instanceof Error ? error.name : 'error'}); the rules decide`)
    return false
  }
}
