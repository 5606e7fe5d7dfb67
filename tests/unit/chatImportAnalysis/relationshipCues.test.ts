import { describe, expect, test } from 'vitest'
import { nameCue, proposeRelationshipType } from '../../../api/chat-import/analysis/relationshipCues'
import { RELATIONSHIP_TYPES } from '../../../api/content/definitions'

describe('relationship type from a contact name', () => {
  test.each([
    ['媽媽', 'PARENTS'],
    ['老媽', 'PARENTS'],
    ['妈', 'PARENTS'],
    ['Mom ❤️', 'PARENTS'],
    ['Mum', 'PARENTS'],
    ['爸', 'PARENTS'],
    ['Dad', 'PARENTS'],
    ['お母さん', 'PARENTS'],
    ['哥', 'SIBLINGS'],
    ['大姐姐', 'SIBLINGS'],
    ['小妹', 'SIBLINGS'],
    ['Big Bro', 'SIBLINGS'],
    ['sis', 'SIBLINGS'],
    ['老公', 'ROMANTIC_PARTNER'],
    ['老婆大人', 'ROMANTIC_PARTNER'],
    ['寶貝', 'ROMANTIC_PARTNER'],
    ['Babe', 'ROMANTIC_PARTNER'],
    ['honey 🍯', 'ROMANTIC_PARTNER'],
    ['王老師', 'MENTOR_ADVISOR'],
    ['Prof. Lin', 'MENTOR_ADVISOR'],
    ['Mentor Kate', 'MENTOR_ADVISOR'],
    ['阿姨', 'AUNTY'],
    ['Aunt May', 'AUNTY'],
    ['叔叔', 'UNCLE'],
    ['舅舅', 'UNCLE'],
    ['Uncle Bob', 'UNCLE'],
    ['爺爺', 'GRANDPARENTS'],
    ['外婆', 'GRANDPARENTS'],
    ['外公', 'GRANDPARENTS'],
    ['Grandma', 'GRANDPARENTS'],
    ['表哥', 'COUSINS'],
    ['堂妹', 'COUSINS'],
    ['Cousin Ray', 'COUSINS'],
    ['外甥女', 'NIECE'],
    ['外甥', 'NEPHEW'],
    ['女兒', 'CHILDREN'],
  ])('%s → %s', (name, type) => {
    expect(nameCue(name)).toBe(type)
    expect(RELATIONSHIP_TYPES).toContain(type)
  })

  test.each(['陳小美', 'Alex Turner', '+44 7700 900123', '陳小姐', 'Momo', 'Sissy Lane', 'Dadi', 'Leo Martínez'])(
    '%s carries no cue',
    (name) => expect(nameCue(name)).toBeNull(),
  )
})

describe('proposed type', () => {
  test('a name cue wins over what the chat is about', () => {
    expect(proposeRelationshipType('媽媽', ['明天開會', '報告寫完了嗎', '客戶來了'])).toBe('PARENTS')
  })

  test('much work talk makes a colleague; a little does not', () => {
    const work = ['meeting moved to 3pm', 'deadline is Friday', '開會前先看報告', 'can you send the slides?', 'ok']
    expect(proposeRelationshipType('Jamie', work)).toBe('COLLEAGUE')
    const life = ['dinner?', 'lol yes', 'my boss is annoying', 'movie tonight', 'sure', 'see you', 'ok', 'haha', 'nice', 'bye']
    expect(proposeRelationshipType('Jamie', life)).toBe('CLOSE_FRIEND')
  })

  test('anyone else is a close friend', () => {
    expect(proposeRelationshipType('Mia Chen', ['morning! did you see the snow?'])).toBe('CLOSE_FRIEND')
    expect(proposeRelationshipType('Mia Chen', [])).toBe('CLOSE_FRIEND')
  })
})
