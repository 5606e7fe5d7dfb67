import { describe, expect, test } from 'vitest'
import type { ChatMessage } from '../../../api/chat-import/types'
import { MAX_PEOPLE, extractPeople } from '../../../api/chat-import/analysis/people'
import { userNameIn } from '../../../api/chat-import/analysis/userNameIn'

const at = (day: number, minute: number) =>
  `2024-03-${String(day).padStart(2, '0')}T10:${String(minute).padStart(2, '0')}:00`

/** A chat from [day, author, text] rows; an empty author is a system line. */
function chat(rows: [number, string, string][]): ChatMessage[] {
  return rows.map(([day, author, text], i) => ({ date: at(day, i % 60), author, text, kind: author ? 'message' : 'system' }))
}

describe('people in the chats', () => {
  test('a one-to-one chat gives the other person, with both sides counted', () => {
    const [person, ...rest] = extractPeople(
      [chat([[1, 'Mia', 'hi'], [1, 'Me', 'hey'], [1, 'Me', '[Sticker]'], [2, '', 'Mia unsent a message.'], [3, 'Mia', 'call me']])],
      'Me',
    )
    expect(rest).toEqual([])
    expect(person).toMatchObject({ name: 'Mia', sent: 2, received: 2, lastMessageAt: at(3, 4) })
    // What they wrote to each other, without media.
    expect(person.texts).toEqual(['hi', 'hey', 'call me'])
    expect(person.closeness).toBeGreaterThanOrEqual(1)
  })

  test('a group gives its members who wrote enough; the user\'s replies count for whom they answer', () => {
    const people = extractPeople(
      [
        chat([
          [1, 'Ana', 'plan for sat?'],
          [1, 'Me', 'hike!'],
          [1, 'Ben', 'in'],
          [1, 'Ana', 'great'],
          [1, 'Cy', 'maybe'],
          [2, 'Ben', 'what time'],
          [2, 'Me', '7:30'],
        ]),
      ],
      'Me',
    )
    expect(people.map((p) => p.name).sort()).toEqual(['Ana', 'Ben'])
    expect(people.find((p) => p.name === 'Ana')).toMatchObject({ sent: 2, received: 1 })
    expect(people.find((p) => p.name === 'Ben')).toMatchObject({ sent: 2, received: 1 })
  })

  test('the same person in two files is one person; the closest come first', () => {
    const people = extractPeople(
      [
        chat([[1, 'Mia', 'a'], [1, 'Me', 'b']]),
        chat(Array.from({ length: 60 }, (_, i): [number, string, string] => [20, i % 2 ? 'Me' : 'Mia', `line ${i}`])),
        chat([[1, 'Old Friend', 'long time'], [1, 'Me', 'yes']]),
      ],
      'Me',
    )
    expect(people.map((p) => p.name)).toEqual(['Mia', 'Old Friend'])
    expect(people[0]).toMatchObject({ sent: 31, received: 31, lastMessageAt: at(20, 59) })
    expect(people[0].closeness).toBeGreaterThan(people[1].closeness)
  })

  test('never more than MAX_PEOPLE, the least close left out', () => {
    // One-to-one chats with P0 … P19; P19 writes most.
    const chats = Array.from({ length: MAX_PEOPLE + 5 }, (_, p) =>
      chat(Array.from({ length: (p + 1) * 20 }, (_, i): [number, string, string] => [10, i % 2 ? 'Me' : `P${p}`, 'hi'])),
    )
    const people = extractPeople(chats, 'Me')
    expect(people).toHaveLength(MAX_PEOPLE)
    expect(people[0].name).toBe(`P${MAX_PEOPLE + 4}`)
    expect(people.map((p) => p.name)).not.toContain('P0')
  })

  test('in a file from the other app the user\'s longer or shorter name is the user, not a person', () => {
    const people = extractPeople(
      [
        chat([[1, 'Mia', 'hi'], [1, 'Dana', 'hey']]),
        chat([[2, 'Dana W.', 'see you'], [2, 'Leo', 'ok'], [2, 'Dana W.', 'bye']]),
      ],
      'Dana',
    )
    expect(people.map((p) => p.name).sort()).toEqual(['Leo', 'Mia'])
    expect(people.find((p) => p.name === 'Leo')).toMatchObject({ sent: 1, received: 2 })
  })

  test('an alias is only taken when exactly one author matches, and never in a chat with the chosen name', () => {
    expect(userNameIn(['Dana Whitfield', 'Leo'], 'dana')).toBe('Dana Whitfield')
    expect(userNameIn(['陳小美', 'Leo'], '小美')).toBe('陳小美')
    expect(userNameIn(['Dana W.', 'Dana K.'], 'Dana')).toBe('Dana')
    expect(userNameIn(['Dana', 'Dana W.'], 'Dana')).toBe('Dana')
    expect(userNameIn(['Joanne', 'Leo'], 'Ann')).toBe('Ann')
    expect(userNameIn(['王小美', 'Leo'], '美')).toBe('美')
    expect(userNameIn(['Mei', 'Leo'], 'mei chen')).toBe('Mei')
    expect(userNameIn(['Mia', 'Leo'], 'Dana')).toBe('Dana')
  })
})
