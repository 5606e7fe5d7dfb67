// A person who has used every part of the product through the API: a built character, an imported group chat
// (people in the graph, confirmed), a conversation with their own words, an image and feedback, and a memory.
// The export, deletion and staff-access tests all look for these traces.
import { readFileSync } from 'node:fs'
import { expect, vi } from 'vitest'
import type { TestApp } from './testApp'
import { chatExportFixtures } from './chatExportFixtures'
import { NOW_TEXT } from '../unit/chat/chatFixtures'

export const GROUP_FILE = 'whatsapp-ios-en-12h.txt'
export const GROUP_USER = 'Dana Whitfield'
export const GROUP_PEOPLE = ['Marcus Lee', 'Priya Raman', "Sam O'Neill"]
const POLL = { timeout: 30_000, interval: 30 }

/** A 1×1 PNG with a marker in a text chunk, so the stored image is recognisable byte for byte. */
export function markedPng(marker: string): Uint8Array {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
  const iend = base.length - 12
  const data = Buffer.from(`Comment\0${marker}`, 'latin1')
  const chunk = Buffer.alloc(12 + data.length)
  chunk.writeUInt32BE(data.length, 0)
  chunk.write('tEXt', 4, 'latin1')
  data.copy(chunk, 8)
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length)
  return new Uint8Array(Buffer.concat([base.subarray(0, iend), chunk, base.subarray(iend)]))
}

function crc32(bytes: Uint8Array): number {
  let c = ~0
  for (const b of bytes) {
    c ^= b
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1
  }
  return ~c >>> 0
}

export interface FullAccount {
  cookie: string
  userId: string
  email: string
  characterId: string
  conversationId: string
  messageIds: string[]
  fileId: string
  memoryId: string
  questionnaireId: string | null
  /** Words only this person wrote: their message, feedback, memory, image marker and conversation name. */
  secrets: { message: string; feedback: string; memory: string; image: string; conversation: string; name: string; description: string }
  image: Uint8Array
}

export async function fullAccount(app: TestApp, tag = Math.random().toString(36).slice(2, 8)): Promise<FullAccount> {
  const secrets = {
    message: `my secret plan ${tag} is to sail to Lanyu`,
    feedback: `feedback-${tag} felt heard`,
    memory: `remembers-${tag} the lighthouse keeper`,
    image: `image-marker-${tag}`,
    conversation: `Evening talk ${tag}`,
    name: `Wren ${tag}`,
    description: `calm organiser ${tag}`,
  }
  const { cookie, user } = await app.signUp(undefined, secrets.name)
  const created = await app.json('POST', '/chatbots/characters?skipChatHistoryUpload=true', {
    cookie,
    body: { userName: GROUP_USER, idealSelfDescription: `A ${secrets.description} who still has time for friends` },
  })
  const characterId = created.body.id
  await vi.waitFor(async () => expect((await app.json('GET', `/chatbots/characters/${characterId}?selectIsReady=true`, { cookie })).body.isReady).toBe(true), POLL)

  const form = new FormData()
  form.append('files', new File([readFileSync(chatExportFixtures().get(GROUP_FILE)!)], GROUP_FILE))
  form.append('userName', GROUP_USER)
  const imported = await app.json('POST', `/chatbots/characters/${characterId}/chat-history`, { cookie, form })
  expect(imported.status).toBe(202)
  const graph = await vi.waitFor(async () => {
    const { body } = await app.json('GET', `/chatbots/characters/${characterId}/relations`, { cookie })
    expect(body).toMatchObject({ isReady: true, import: { id: imported.body.importId } })
    return body.data
  }, POLL)
  const saved = await app.json('PATCH', `/chatbots/characters/${characterId}/relations`, { cookie, body: graph })
  expect(saved.status).toBe(200)

  const upload = new FormData()
  const image = markedPng(secrets.image)
  upload.append('file', new File([image], 'photo.png', { type: 'image/png' }))
  const file = await app.json('POST', '/self/file', { cookie, form: upload })
  expect(file.status).toBe(200)

  const conversation = await app.json('POST', '/chatbots/conversations', { cookie, body: { name: secrets.conversation } })
  const conversationId = conversation.body.id
  const sent = await app.json('POST', `/chatbots/conversations/${conversationId}/character/${characterId}/chat?sse=false`, {
    cookie,
    body: { text: secrets.message, currentDateTime: NOW_TEXT, files: [{ id: file.body.id }] },
  })
  expect(sent.status).toBe(200)
  const botId = sent.body.newChatbotMessage.id
  const feedback = await app.json('POST', '/feedbacks/bot-response-message', { cookie, body: { messageId: botId, feedbackText: secrets.feedback } })
  expect(feedback.status).toBeLessThan(300)
  const memory = await app.json('POST', '/memories', { cookie, body: { kind: 'fact', text: secrets.memory } })
  expect(memory.status).toBeLessThan(300)
  const questionnaire = await app.json('GET', `/chatbots/characters/${characterId}/questionnaire`, { cookie })

  return {
    cookie,
    userId: user.id,
    email: user.email,
    characterId,
    conversationId,
    messageIds: [sent.body.newUserMessage.id, botId],
    fileId: file.body.id,
    memoryId: memory.body.id,
    questionnaireId: questionnaire.body?.id ?? null,
    secrets,
    image,
  }
}
