import { describe, expect, test } from 'vitest'
import { storyGuideMessages, type StoryEntryText } from '../../../api/prompts/storyGuide.v1'
import { improveDescriptionMessages, improvedDescriptionSchema, type ImprovedDescription } from '../../../api/prompts/improveDescription.v1'
import { characterBuilderMessages, characterBuilderSchema } from '../../../api/prompts/characterBuilder.v1'
import { splitPersonContext } from '../../../api/llm/personContext'
import { createOfflineProvider } from '../../../api/llm/offlineProvider'

const story: StoryEntryText[] = [
  { role: 'GUIDE', content: 'Hi Ari! What challenge are you facing?' },
  { role: 'USER', content: 'I keep putting off my thesis.' },
]

describe('story guide v1', () => {
  const guide = (entries: StoryEntryText[], language: 'en-US' | 'zh-TW' | 'zh-CN' = 'en-US') =>
    storyGuideMessages({ userName: 'Ari', idealSelf: 'a focused researcher', entries, exchanges: 3, language })

  test('opens with one question about a challenge, and carries the person context last', () => {
    const [system, ...rest] = guide([])
    expect(rest).toEqual([])
    expect(system.role).toBe('system')
    expect(system.content).toContain('Ask exactly one short, warm question')
    expect(system.content).toContain('question 1 of 3')
    expect(system.content).toContain('a concrete challenge they are facing right now')
    expect(splitPersonContext(system.content).context).toEqual({ name: 'Ari', idealSelf: 'a focused researcher', language: 'en-US' })
  })

  test('the conversation follows as guide and user turns, and the questions move towards the ideal self', () => {
    const messages = guide(story)
    expect(messages.slice(1)).toEqual([
      { role: 'assistant', content: story[0].content },
      { role: 'user', content: story[1].content },
    ])
    expect(messages[0].content).toContain('question 2 of 3')
    const third = guide([...story, { role: 'GUIDE', content: 'Why?' }, { role: 'USER', content: 'Fear.' }])[0].content
    expect(third).toContain('how their ideal self would see and handle this challenge')
    expect(splitPersonContext(third).context.story).toEqual(['I keep putting off my thesis.', 'Fear.'])
  })

  test('after the last answer it asks for a closing line without a question', () => {
    const answered = [...story, { role: 'GUIDE' as const, content: 'Q2' }, { role: 'USER' as const, content: 'A2' }, { role: 'GUIDE' as const, content: 'Q3' }, { role: 'USER' as const, content: 'A3' }]
    const system = guide(answered)[0].content
    expect(system).toContain('They have answered all 3 questions')
    expect(system).toContain('Do not ask anything')
  })

  test('is written in the chosen language', () => {
    expect(guide([], 'zh-TW')[0].content).toContain('用繁體中文回答')
    expect(guide([], 'zh-CN')[0].content).toContain('用简体中文回答')
  })
})

describe('description improver v1', () => {
  test('sends the description as the user message and asks for a role', async () => {
    const messages = improveDescriptionMessages({ userName: 'Ari', description: 'calm under deadlines', language: 'en-US' })
    expect(messages[1]).toEqual({ role: 'user', content: 'calm under deadlines' })
    expect(messages[0].content).toContain('roleName')
    expect(splitPersonContext(messages[0].content).context).toMatchObject({ name: 'Ari', idealSelf: 'calm under deadlines' })
    const offline = await createOfflineProvider().json<ImprovedDescription>(messages, improvedDescriptionSchema)
    expect(offline.roleName).toBeTruthy()
    expect(offline.roleDescription).toContain('calm under deadlines')
  })
})

describe('character builder v1', () => {
  test('hands the model every piece of material and asks for the portrait', async () => {
    const messages = characterBuilderMessages({
      userName: 'Ari',
      originalDescription: 'calm under deadlines',
      improvedRoleName: 'Focused Researcher',
      improvedRoleDescription: 'Works in steady blocks and asks for help early.',
      storyEntries: story,
      questionnaireAnswers: [{ question: 'What gives you energy?', answer: 'Cycling' }],
      language: 'en-US',
    })
    const system = messages[0].content
    for (const text of ['calm under deadlines', 'Focused Researcher', 'Works in steady blocks', story[0].content, story[1].content, 'What gives you energy? Cycling'])
      expect(system).toContain(text)
    expect(splitPersonContext(system).context.story).toEqual([story[1].content])
    const { persona } = await createOfflineProvider().json<{ persona: string }>(messages, characterBuilderSchema)
    expect(persona).toContain('Ari')
    expect(persona).toContain(story[1].content)
  })
})
