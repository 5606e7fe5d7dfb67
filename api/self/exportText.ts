// The human-readable parts of the data archive: the README in the person's language and a Markdown copy of every
// conversation. Texts come from locales/, like every other text the person reads.
import en from '../../locales/en-US.json'
import zhTW from '../../locales/zh-TW.json'
import zhCN from '../../locales/zh-CN.json'
import type { Language } from '../llm/language'

const README = { 'en-US': en.dataExport.readme, 'zh-TW': zhTW.dataExport.readme, 'zh-CN': zhCN.dataExport.readme }

export type ReadmeTexts = (typeof README)['en-US']

/** The language the archive speaks: the one asked for, else the person's story language, else English. */
export function archiveLanguage(asked: string | null | undefined, stored: string | null | undefined): Language {
  for (const value of [asked, stored]) {
    if (value === 'zh-TW' || value === 'zh-CN' || value === 'en-US') return value
    if (value === 'en') return 'en-US'
  }
  return 'en-US'
}

export function readmeTexts(language: Language): ReadmeTexts {
  return README[language]
}

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (m, key: string) => (key in values ? String(values[key]) : m))

export interface ArchiveCounts {
  conversations: number
  messages: number
  characters: number
  people: number
  memories: number
  images: number
}

/** README.txt: what the archive holds and where, in the person's language. */
export function readme(language: Language, name: string, exportedAt: Date, counts: ArchiveCounts): string {
  const t = README[language]
  const lines = [
    t.title,
    '',
    fill(t.intro, { name, date: exportedAt.toISOString() }),
    '',
    fill(t.counts, { ...counts }),
    '',
    t.filesHeading,
    ...Object.entries(t.files).map(([file, what]) => `- ${file}: ${what}`),
    '',
    t.formats,
  ]
  return lines.join('\n') + '\n'
}

/** Markdown text is escaped where a line of a message could otherwise turn into a heading, list or rule. */
export function markdownQuote(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => `> ${line.replace(/([\\`*_[\]#<>|])/g, '\\$1')}`)
    .join('\n')
}

export interface MarkdownMessage {
  role: 'USER' | 'ASSISTANT'
  text: string
  createdAt: Date
  feedback: string[]
  fileNames: string[]
}

export function conversationHeading(language: Language, title: string, characterName: string | null, createdAt: Date): string {
  const t = README[language]
  return `# ${title.replace(/\n/g, ' ')}\n\n${fill(t.conversationMeta, { character: characterName ?? '—', date: createdAt.toISOString() })}\n\n`
}

/** One message of the Markdown copy: who and when, the quoted text, attached images and feedback given on it. */
export function markdownMessage(language: Language, userName: string, characterName: string | null, m: MarkdownMessage): string {
  const t = README[language]
  const who = m.role === 'USER' ? userName || t.you : characterName || t.companion
  const parts = [`**${who.replace(/([\\`*_[\]#<>|])/g, '\\$1')}** · ${m.createdAt.toISOString()}`, '', markdownQuote(m.text)]
  for (const name of m.fileNames) parts.push('', `![${t.image}](../${name})`)
  for (const feedback of m.feedback) parts.push('', `${t.feedback}: ${feedback.replace(/\n/g, ' ')}`)
  return parts.join('\n') + '\n\n'
}
