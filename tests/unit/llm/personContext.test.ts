import { expect, test } from 'vitest'
import { formatPersonContext, splitPersonContext, type PersonContext } from '../../../api/llm/personContext'

const context: PersonContext = {
  name: 'Alex',
  idealSelf: 'Calm and focused.\nKind to myself.',
  goal: 'Finish my thesis',
  story: ['I grew up by the sea.', 'I moved to Taipei\nfor work.'],
  people: ['Mei (sister)'],
  language: 'zh-TW',
}

test('sections read back exactly, wherever they sit in a prompt', () => {
  const prompt = `You are Alex's ideal self.\n\n${formatPersonContext(context)}\n\n## Rules\nStay kind.`
  expect(splitPersonContext(prompt)).toEqual({ context, rest: "You are Alex's ideal self.\n\n## Rules\nStay kind." })
})

test('empty fields are left out and unknown languages ignored', () => {
  expect(formatPersonContext({ name: 'Alex', story: [] })).toBe('## Name\nAlex')
  expect(splitPersonContext('## Language\nfr-FR\n## Name\nAlex').context).toEqual({ name: 'Alex' })
})
