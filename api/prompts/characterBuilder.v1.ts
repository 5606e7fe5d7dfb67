// Writes the ideal self's portrait ("idealSelfPrompt"): the person the user is becoming, who has already navigated
// the challenges of their story. assembleCharacterPrompt builds the chat's system prompt around it.
import type { Language } from '../llm/language'
import type { ChatMessage } from '../llm/provider'
import { formatPersonContext } from '../llm/personContext'
import type { QuestionnaireAnswer } from './characterPrompt.v1'
import type { StoryEntryText } from './storyGuide.v1'

export interface CharacterBuilderInput {
  userName: string
  originalDescription: string
  improvedRoleName: string | null
  improvedRoleDescription: string | null
  storyEntries: StoryEntryText[]
  questionnaireAnswers: QuestionnaireAnswer[]
  language: Language
}

export const characterBuilderSchema = {
  type: 'object',
  properties: { persona: { type: 'string' } },
  required: ['persona'],
} as const

interface BuilderTexts {
  task: (name: string) => string
  own: string
  role: string
  story: string
  guide: string
  answers: string
  request: string
}

const TEXTS: Record<Language, BuilderTexts> = {
  'en-US': {
    task: (name) =>
      `Write "persona": the portrait of ${name}'s ideal self — ${name} in the future, who has already navigated every challenge below. 150 to 250 words, in the second person ("You are …"): values, temperament, how they speak, how they came through the challenges of the story, and what they would remind ${name} of. Concrete and warm, grounded only in the material below; invent no facts about ${name}'s life. Write in English.`,
    own: 'Who they want to become, in their own words',
    role: 'As a role',
    story: 'The story they told',
    guide: 'Guide',
    answers: 'How they want their ideal self to be',
    request: 'Write the portrait now.',
  },
  'zh-TW': {
    task: (name) =>
      `寫出 "persona"：${name}理想中的自己的畫像——未來的${name}，已經走過下面每一個挑戰。150 到 300 字，用第二人稱（「你是……」）：價值觀、性情、說話的方式、如何走過故事中的挑戰，以及會提醒${name}什麼。具體、溫暖，只根據下面的材料；不要捏造${name}生活中的事實。用繁體中文書寫。`,
    own: '他們用自己的話描述想成為的人',
    role: '整理成角色',
    story: '他們說的故事',
    guide: '嚮導',
    answers: '他們希望理想中的自己是什麼樣子',
    request: '現在寫出這幅畫像。',
  },
  'zh-CN': {
    task: (name) =>
      `写出 "persona"：${name}理想中的自己的画像——未来的${name}，已经走过下面每一个挑战。150 到 300 字，用第二人称（“你是……”）：价值观、性情、说话的方式、如何走过故事中的挑战，以及会提醒${name}什么。具体、温暖，只根据下面的材料；不要捏造${name}生活中的事实。用简体中文书写。`,
    own: '他们用自己的话描述想成为的人',
    role: '整理成角色',
    story: '他们说的故事',
    guide: '向导',
    answers: '他们希望理想中的自己是什么样子',
    request: '现在写出这幅画像。',
  },
}

export function characterBuilderMessages(input: CharacterBuilderInput): ChatMessage[] {
  const texts = TEXTS[input.language]
  const material = [
    `### ${texts.own}\n${input.originalDescription}`,
    input.improvedRoleName || input.improvedRoleDescription
      ? `### ${texts.role}\n${[input.improvedRoleName, input.improvedRoleDescription].filter(Boolean).join(': ')}`
      : null,
    input.storyEntries.length
      ? `### ${texts.story}\n${input.storyEntries.map((e) => `${e.role === 'GUIDE' ? texts.guide : input.userName}: ${e.content}`).join('\n')}`
      : null,
    input.questionnaireAnswers.length
      ? `### ${texts.answers}\n${input.questionnaireAnswers.map((a) => `- ${a.question} ${a.answer}`).join('\n')}`
      : null,
  ].filter(Boolean)
  const context = formatPersonContext({
    name: input.userName,
    idealSelf: input.improvedRoleDescription ?? input.originalDescription,
    story: input.storyEntries.filter((e) => e.role === 'USER').map((e) => e.content),
    language: input.language,
  })
  return [
    { role: 'system', content: [texts.task(input.userName), ...material, context].join('\n\n') },
    { role: 'user', content: texts.request },
  ]
}
