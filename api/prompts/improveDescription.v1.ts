// Turns the person's own description of who they want to become into a role: a short name and a fuller description
// that keeps every detail they gave (spec §3 Training data: improvedIdealSelfRoleName / RoleDescription).
import type { Language } from '../llm/language'
import type { ChatMessage } from '../llm/provider'
import { formatPersonContext } from '../llm/personContext'

export interface ImproveDescriptionInput {
  userName: string | null
  description: string
  language: Language
}

export interface ImprovedDescription {
  roleName: string
  roleDescription: string
}

export const ROLE_NAME_MAX = 60
export const ROLE_DESCRIPTION_MAX = 1500

export const improvedDescriptionSchema = {
  type: 'object',
  properties: {
    roleName: { type: 'string', maxLength: ROLE_NAME_MAX },
    roleDescription: { type: 'string', maxLength: ROLE_DESCRIPTION_MAX },
  },
  required: ['roleName', 'roleDescription'],
} as const

const INSTRUCTIONS: Record<Language, string> = {
  'en-US': [
    'The user message is how a person describes who they want to become.',
    'Turn it into their ideal self as a role:',
    '- roleName: a title of two to five words that captures that person, e.g. "Calm, Brave Founder".',
    '- roleDescription: three to five sentences about who this person is: values, temperament, how they act under pressure and how they treat others.',
    'Keep every concrete detail the person gave and add nothing that contradicts it. Write warmly and plainly, in English.',
  ].join('\n'),
  'zh-TW': [
    '使用者訊息是一個人描述自己想成為什麼樣的人。',
    '把它整理成一個「理想中的自己」角色：',
    '- roleName：兩到八個字的稱號，抓住這個人的樣子，例如「沉著勇敢的創業者」。',
    '- roleDescription：三到五句話描述這個人：價值觀、性情、在壓力下的做法，以及如何對待他人。',
    '保留對方提到的每個具體細節，不加入與之矛盾的內容。用溫暖、平實的繁體中文書寫。',
  ].join('\n'),
  'zh-CN': [
    '用户消息是一个人描述自己想成为什么样的人。',
    '把它整理成一个“理想中的自己”角色：',
    '- roleName：两到八个字的称号，抓住这个人的样子，例如“沉着勇敢的创业者”。',
    '- roleDescription：三到五句话描述这个人：价值观、性情、在压力下的做法，以及如何对待他人。',
    '保留对方提到的每个具体细节，不加入与之矛盾的内容。用温暖、平实的简体中文书写。',
  ].join('\n'),
}

export function improveDescriptionMessages(input: ImproveDescriptionInput): ChatMessage[] {
  const context = formatPersonContext({ name: input.userName ?? undefined, idealSelf: input.description, language: input.language })
  return [
    { role: 'system', content: `${INSTRUCTIONS[input.language]}\n\n${context}` },
    { role: 'user', content: input.description },
  ]
}
