// The people the user talks with in the imported chats, with what the chats show about each of them. Pure.
import type { ChatMessage } from '../types'
import { closeness } from './closeness'
import { isPlaceholder } from './placeholders'
import { userNameIn } from './userNameIn'

export interface PersonStats {
  name: string
  /** Messages they wrote. */
  sent: number
  /** Messages the user wrote to them: everything in a one-to-one chat, direct replies in a group. */
  received: number
  /** Their latest exchange with the user, export wall-clock `YYYY-MM-DDTHH:MM:SS`. */
  lastMessageAt: string
  /** What the two wrote to each other (the most recent TEXTS_KEPT, media left out), for type cues and the model. */
  texts: string[]
}

export interface Person extends PersonStats {
  closeness: number
}

/** In a group, someone who wrote less than this (in messages and in share of the group) is not in the graph. */
const GROUP_MIN_MESSAGES = 2
const GROUP_MIN_SHARE = 0.02
/** The relationship editor shows one card per person; beyond this the least close are left out. */
export const MAX_PEOPLE = 15
const TEXTS_KEPT = 200
const DAY_MS = 86_400_000

const timeOf = (date: string) => Date.parse(`${date}Z`)

function personOf(people: Map<string, PersonStats>, name: string): PersonStats {
  let person = people.get(name)
  if (!person) people.set(name, (person = { name, sent: 0, received: 0, lastMessageAt: '', texts: [] }))
  return person
}

function note(person: PersonStats, message: ChatMessage) {
  if (message.date > person.lastMessageAt) person.lastMessageAt = message.date
  if (!isPlaceholder(message.text)) person.texts.push(message.text)
}

/** Adds one chat's people to `people`: the other author of a one-to-one chat, or a group's active members. */
function addChat(people: Map<string, PersonStats>, chat: ChatMessage[], chosenName: string) {
  const messages = chat.filter((m) => m.kind === 'message')
  const sentBy = new Map<string, number>()
  for (const m of messages) sentBy.set(m.author, (sentBy.get(m.author) ?? 0) + 1)
  const userName = userNameIn([...sentBy.keys()], chosenName)
  const others = [...sentBy.keys()].filter((name) => name !== userName)
  const oneToOne = others.length === 1
  const counted = new Set(
    oneToOne
      ? others
      : others.filter((name) => sentBy.get(name)! >= GROUP_MIN_MESSAGES && sentBy.get(name)! / messages.length >= GROUP_MIN_SHARE),
  )
  let previous: ChatMessage | null = null
  for (const m of messages) {
    if (counted.has(m.author)) {
      const person = personOf(people, m.author)
      person.sent++
      note(person, m)
    } else if (m.author === userName) {
      const addressee = oneToOne ? others[0] : previous && counted.has(previous.author) ? previous.author : null
      if (addressee) {
        const person = personOf(people, addressee)
        person.received++
        note(person, m)
      }
    }
    previous = m
  }
}

/** Everyone the user chats with across the files, merged by name, closest first, at most MAX_PEOPLE. */
export function extractPeople(chats: ChatMessage[][], userName: string): Person[] {
  const people = new Map<string, PersonStats>()
  let newest = ''
  for (const chat of chats) {
    addChat(people, chat, userName)
    for (const m of chat) if (m.date > newest) newest = m.date
  }
  return [...people.values()]
    .map((p) => ({
      ...p,
      texts: p.texts.slice(-TEXTS_KEPT),
      closeness: closeness({ sent: p.sent, received: p.received, daysSinceLast: (timeOf(newest) - timeOf(p.lastMessageAt)) / DAY_MS }),
    }))
    .sort((a, b) => b.closeness - a.closeness || b.sent + b.received - (a.sent + a.received))
    .slice(0, MAX_PEOPLE)
}
