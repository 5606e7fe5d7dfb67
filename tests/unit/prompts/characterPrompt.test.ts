import { describe, expect, test } from 'vitest'
import { assembleCharacterPrompt, type CharacterPromptInput } from '../../../api/prompts/characterPrompt.v1'
import { splitPersonContext } from '../../../api/llm/personContext'
import { createOfflineProvider } from '../../../api/llm/offlineProvider'

const input: CharacterPromptInput = {
  userName: 'Mei-Lin',
  originalDescription: 'someone who speaks up in meetings and still sleeps well',
  improvedRoleName: 'Steady Voice',
  improvedRoleDescription: 'A calm designer who says what she thinks and rests without guilt.',
  storyEntries: [
    { role: 'GUIDE', content: 'What challenge are you facing right now?' },
    { role: 'USER', content: 'My manager talks over me in design reviews.' },
    { role: 'GUIDE', content: 'How would your ideal self handle that?' },
    { role: 'USER', content: 'She would finish her sentence\nand ask for two more minutes.' },
  ],
  questionnaireAnswers: [
    { question: 'What gives you energy when things get hard?', answer: 'Morning runs by the river' },
    { question: 'How direct should your ideal self be with you?', answer: '4/5 (1 Gentle … 5 Straight to the point)' },
  ],
  relations: [
    { name: 'Ah-Hua', types: ['SIBLINGS'], closeness: 5 },
    { name: 'Mr. Chen', types: ['MENTOR_ADVISOR', 'COLLEAGUE'], closeness: 2 },
  ],
  speakingStyle: {
    summary: 'Short messages, lots of laughing emoji, mixes English into Chinese.',
    samples: ['haha ok 我等等到', 'you got this!!'],
    stats: { averageMessageLength: 14, emojiPerMessage: 0.8 },
  },
  language: 'en-US',
  idealSelfPrompt: 'You are the Mei-Lin who learned that a steady voice is louder than a loud one.',
}

describe('assembleCharacterPrompt', () => {
  const prompt = assembleCharacterPrompt(input)

  test('every input reaches the prompt', () => {
    expect(prompt).toContain('Mei-Lin')
    expect(prompt).toContain(input.originalDescription!)
    expect(prompt).toContain('Steady Voice')
    expect(prompt).toContain(input.improvedRoleDescription!)
    expect(prompt).toContain(input.idealSelfPrompt)
    for (const entry of input.storyEntries) expect(prompt).toContain(entry.content.replace(/\n+/g, ' '))
    for (const { question, answer } of input.questionnaireAnswers) {
      expect(prompt).toContain(question)
      expect(prompt).toContain(answer)
    }
    expect(prompt).toContain('Ah-Hua: siblings; closeness 5 of 5')
    expect(prompt).toContain('Mr. Chen: mentor advisor, colleague; closeness 2 of 5')
    expect(prompt).toContain(input.speakingStyle!.summary)
    for (const sample of input.speakingStyle!.samples!) expect(prompt).toContain(sample)
    expect(prompt).toContain('averageMessageLength: 14')
    expect(prompt).toContain('emojiPerMessage: 0.8')
  })

  test('the ideal self is the future self, answers in their language, and is not a therapist', () => {
    expect(prompt).toContain("You are Mei-Lin's ideal self: Mei-Lin in the future")
    expect(prompt).toContain('Answer in English, unless they write in another language')
    expect(prompt).toContain('You are not a therapist')
  })

  test('ends with a person-context block the offline provider reads back', () => {
    const { context } = splitPersonContext(prompt)
    expect(context).toEqual({
      name: 'Mei-Lin',
      idealSelf: input.improvedRoleDescription,
      story: ['My manager talks over me in design reviews.', 'She would finish her sentence\nand ask for two more minutes.'],
      people: ['Ah-Hua (siblings)', 'Mr. Chen (mentor advisor, colleague)'],
      language: 'en-US',
    })
  })

  test('is written in the person’s language', () => {
    const tw = assembleCharacterPrompt({ ...input, language: 'zh-TW' })
    expect(tw).toContain('你是Mei-Lin理想中的自己')
    expect(tw).toContain('用繁體中文回答')
    expect(tw).toContain('你不是心理治療師')
    const cn = assembleCharacterPrompt({ ...input, language: 'zh-CN' })
    expect(cn).toContain('用简体中文回答')
    expect(cn).toContain('Ah-Hua: siblings; 亲密度 5/5')
  })

  test('leaves out what is not known yet', () => {
    const bare = assembleCharacterPrompt({
      ...input,
      originalDescription: null,
      improvedRoleName: null,
      improvedRoleDescription: null,
      storyEntries: [],
      questionnaireAnswers: [],
      relations: undefined,
      speakingStyle: null,
    })
    expect(bare).not.toContain('What you know about')
    expect(bare).not.toContain('People in')
    expect(bare).not.toContain('undefined')
    expect(bare).not.toContain('null')
    expect(splitPersonContext(bare).context).toEqual({ name: 'Mei-Lin', language: 'en-US' })
  })

  test('with no model, the chat greets the person by name as their ideal self', async () => {
    const reply = await createOfflineProvider().complete([{ role: 'system', content: prompt }])
    expect(reply).toContain('Mei-Lin')
    expect(reply).toContain('ideal self')
  })
})
