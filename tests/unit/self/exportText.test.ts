import { describe, expect, test } from 'vitest'
import { archiveLanguage, conversationHeading, markdownMessage, markdownQuote, readme } from '../../../api/self/exportText'

const counts = { conversations: 2, messages: 7, characters: 1, people: 3, memories: 4, images: 5 }
const at = new Date('2026-11-25T08:00:00Z')

describe('archiveLanguage', () => {
  test.each([
    ['zh-TW', null, 'zh-TW'], ['zh-CN', 'zh-TW', 'zh-CN'], ['en', 'zh-TW', 'en-US'], ['en-US', null, 'en-US'],
    [null, 'zh-CN', 'zh-CN'], [undefined, 'en', 'en-US'], ['fr', 'zh-TW', 'zh-TW'], ['', '', 'en-US'], [null, null, 'en-US'],
  ])('asked %s, stored %s → %s', (asked, stored, expected) => {
    expect(archiveLanguage(asked, stored)).toBe(expected)
  })
})

describe('README', () => {
  test.each([
    ['en-US', 'Ideal Self — your data', 'Conversations: 2. Messages: 7. Characters: 1. People: 3. Memories: 4. Images: 5.'],
    ['zh-TW', 'Ideal Self — 你的資料', '對話：2。訊息：7。角色：1。人物：3。記憶：4。圖片：5。'],
    ['zh-CN', 'Ideal Self — 你的数据', '对话：2。消息：7。角色：1。人物：3。记忆：4。图片：5。'],
  ] as const)('%s: title, counts, every file explained, no placeholder left', (language, title, line) => {
    const text = readme(language, 'Mei', at, counts)
    expect(text.split('\n')[0]).toBe(title)
    expect(text).toContain(line)
    expect(text).toContain('Mei')
    expect(text).toContain('2026-11-25T08:00:00.000Z')
    for (const file of ['profile.json', 'characters.json', 'relations.json', 'chat-imports.json', 'memories.json', 'conversations/*.json', 'conversations/*.md', 'images/'])
      expect(text).toContain(`- ${file}: `)
    expect(text).not.toMatch(/\{\{?\w+\}?\}/)
  })
})

describe('Markdown copy', () => {
  test.each([
    ['# not a heading', '> \\# not a heading'],
    ['- not a list', '> - not a list'],
    ['line one\nline two', '> line one\n> line two'],
    ['windows\r\nbreaks', '> windows\n> breaks'],
    ['<script>alert(1)</script>', '> \\<script\\>alert(1)\\</script\\>'],
    ['**bold** _it_ `code` [link](x)', '> \\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\[link\\](x)'],
    ['| a | b |', '> \\| a \\| b \\|'],
    ['', '> '],
    ['早安，今天好嗎？', '> 早安，今天好嗎？'],
  ])('quotes %j safely', (input, output) => {
    expect(markdownQuote(input)).toBe(output)
  })

  test('a message names who and when, links its images and shows the feedback given', () => {
    const text = markdownMessage('en-US', 'Mei', 'Calm Mei', {
      role: 'USER', text: 'Hello', createdAt: at, feedback: [], fileNames: ['images/a.png'],
    })
    expect(text).toBe('**Mei** · 2026-11-25T08:00:00.000Z\n\n> Hello\n\n![image](../images/a.png)\n\n')
    const reply = markdownMessage('zh-TW', '', null, { role: 'ASSISTANT', text: 'Hi', createdAt: at, feedback: ['very\nkind'], fileNames: [] })
    expect(reply).toContain('**Ideal Self**')
    expect(reply).toContain('你的回饋: very kind')
    expect(markdownMessage('zh-CN', '', null, { role: 'USER', text: 'x', createdAt: at, feedback: [], fileNames: [] })).toContain('**你**')
  })

  test('the heading is one line whatever the conversation is called', () => {
    expect(conversationHeading('en-US', 'Two\nlines', null, at)).toBe('# Two lines\n\nCharacter: — · started 2026-11-25T08:00:00.000Z\n\n')
  })
})
