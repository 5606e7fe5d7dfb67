// Which model answers (DESIGN §6): the configured provider; in `auto`, a configured OpenAI-compatible endpoint,
// else a reachable Ollama, else the offline provider.
import { createOfflineProvider } from './offlineProvider'
import { createOllamaProvider, listOllamaModels, type OllamaConfig } from './ollamaProvider'
import { createOpenAIProvider } from './openaiProvider'
import type { ModelProvider, ProviderKind } from './provider'

export interface ProviderConfig {
  provider: 'auto' | ProviderKind
  ollama: OllamaConfig
  openai: { baseUrl?: string; apiKey?: string; model?: string; embedModel?: string | null }
}

export interface SelectOptions {
  /** How long `auto` waits for Ollama to answer GET /api/tags. */
  probeTimeoutMs?: number
  /** Told why `auto` settled on what it did when that is not simply the configuration (start-up log). */
  notice?: (message: string) => void
}

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com'

// Ollama treats a name without a tag as ":latest".
const withTag = (model: string) => (model.includes(':') ? model : `${model}:latest`)

export async function selectProvider(config: ProviderConfig, options: SelectOptions = {}): Promise<ModelProvider> {
  const { probeTimeoutMs = 800, notice = console.warn } = options
  const { openai, ollama } = config

  switch (config.provider) {
    case 'offline':
      return createOfflineProvider()
    case 'ollama':
      return createOllamaProvider(ollama)
    case 'openai':
      if (!openai.model) throw new Error('LLM_PROVIDER=openai needs OPENAI_MODEL')
      return createOpenAIProvider({ baseUrl: openai.baseUrl ?? OPENAI_DEFAULT_BASE_URL, apiKey: openai.apiKey, model: openai.model, embedModel: openai.embedModel })
  }

  if (openai.baseUrl && openai.model)
    return createOpenAIProvider({ baseUrl: openai.baseUrl, apiKey: openai.apiKey, model: openai.model, embedModel: openai.embedModel })

  const models = await listOllamaModels(ollama, probeTimeoutMs)
  if (models === null) {
    notice(`No model: Ollama at ${ollama.host} did not answer within ${probeTimeoutMs} ms, so replies come from the offline provider.`)
    return createOfflineProvider()
  }
  if (models.length === 0) {
    notice(`No model: Ollama at ${ollama.host} has none pulled (try "ollama pull ${ollama.model}"), so replies come from the offline provider.`)
    return createOfflineProvider()
  }
  const wanted = withTag(ollama.model)
  const present = models.find((name) => withTag(name) === wanted)
  if (present) return createOllamaProvider({ ...ollama, model: present })
  notice(`Ollama at ${ollama.host} has no model "${ollama.model}"; using "${models[0]}" instead (pull the configured one or set OLLAMA_MODEL).`)
  return createOllamaProvider({ ...ollama, model: models[0] })
}

/** What a health endpoint shows about the model. */
export function describeProvider(provider: ModelProvider): { kind: ProviderKind; model: string | null } {
  return { kind: provider.kind, model: provider.model }
}
