import { Elysia, sse, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, HttpError, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import {
  conversationsOf,
  createConversation,
  deleteAllMessages,
  deleteStaleReplies,
  messagePage,
  ownConversation,
  ownMessage,
  toConversation,
} from '../chat/conversations'
import { sendMessage, type ChatDeps, type StartedReply } from '../chat/sendMessage'
import type { FeedItem } from '../chat/replyFeed'
import type { ReplyOutcome } from '../chat/replyRelay'
import { editAndResend, regenerateReply, replyVersions } from '../chat/reviseReply'
import { helloMessage } from '../chat/hello'
import { CLIENT_DATE_TIME_HINT, isClientDateTime } from '../chat/clientDateTime'
import { MESSAGE_MAX_CHARS } from '../chat/messageText'

/** An idle stream sends a heartbeat event this often: proxies and Bun's idle timeout (30 s) would otherwise close it while a model loads. */
const HEARTBEAT_MS = 15_000

const CONVERSATION_PAGE_DEFAULT = 100
const CONVERSATION_PAGE_MAX = 100

const clientDateTime = t.String({ error: CLIENT_DATE_TIME_HINT })

/**
 * A started reply as the client asked for it: JSON once it is saved (?sse=false), or server-sent events (start, help,
 * delta, heartbeat, done | error). Everything that can refuse the message happened before, so refusals are plain
 * JSON errors.
 */
async function* answer(reply: StartedReply, sseWanted: boolean | undefined, set: { headers: Record<string, string | number> }, request: Request) {
  if (sseWanted === false) {
    const outcome = await reply.outcome
    if (!outcome.ok) throw new HttpError(outcome.error.statusCode, outcome.error.error, outcome.error.message)
    return {
      newUserMessage: reply.userMessage,
      newChatbotMessage: { ...reply.botMessage, text: outcome.text, help: outcome.help },
      messageLimit: reply.messageLimit,
    }
  }

  // Headers count only before the first yield. Compression stays off: the server never compresses event streams
  // (api/http/delivery.ts), a stream must never carry content-encoding (integrations §5), and no-transform keeps
  // proxies from adding it.
  streamHeaders(set)
  const botMessageId = reply.botMessage.id
  // The person's message comes back whole, with the served address of each attached image, so the page can swap
  // its local previews for the stored files without a reload.
  yield sse({
    event: 'start',
    data: {
      userMessageId: reply.userMessage.id,
      userMessage: reply.userMessage,
      botMessageId,
      messageLimit: reply.messageLimit,
      sources: reply.botMessage.sources,
      version: reply.botMessage.version,
    },
  })
  for await (const item of reply.feed.read(HEARTBEAT_MS, request.signal)) yield feedEvent(item)
  // A client that left reads GET …/messages/{botMessageId}/stream (or polls the message); the reply is saved either way.
  if (request.signal.aborted) return
  yield outcomeEvent(botMessageId, await reply.outcome)
}

const feedEvent = (item: FeedItem) =>
  'delta' in item
    ? sse({ event: 'delta', data: { t: item.delta } })
    : 'help' in item
      ? sse({ event: 'help', data: { text: item.help } })
      : sse({ event: 'heartbeat', data: {} })

const outcomeEvent = (botMessageId: string, outcome: ReplyOutcome) =>
  outcome.ok
    ? sse({ event: 'done', data: { botMessageId, text: outcome.text, help: outcome.help } })
    : sse({ event: 'error', data: { error: outcome.error.error, message: outcome.error.message } })

/** Server-sent events that go through proxies unbuffered and untouched. */
function streamHeaders(set: { headers: Record<string, string | number> }) {
  set.headers['cache-control'] = 'no-cache, no-transform'
  set.headers['x-accel-buffering'] = 'no'
}

export const conversationRoutes = (ctx: AppContext) => {
  const { sql } = ctx
  const deps: ChatDeps = { sql, storage: ctx.storage, provider: ctx.model.provider, limitPeriod: ctx.cfg.freeLimitPeriod, jobs: ctx.jobs, relay: ctx.relay }

  async function conversationOf(userId: string, id: string) {
    const conversation = isUuid(id) ? await ownConversation(sql, userId, id) : null
    if (!conversation) throw notFound('Conversation not found')
    return conversation
  }

  return new Elysia({ prefix: '/chatbots/conversations', tags: ['Chat'] })
    .use(authGuard(ctx))
    .post(
      '',
      async ({ user, body }) => {
        const name = body.name.trim()
        if (!name) throw badRequest('name is required')
        const characterId = body.characterId ?? null
        const row = characterId === null || isUuid(characterId) ? await createConversation(sql, user.id, name, characterId) : null
        if (!row) throw notFound('Character not found')
        return { conversationId: row.id, id: row.id, name: row.name, createdAt: row.created_at.toISOString() }
      },
      {
        auth: true,
        body: t.Object({
          name: t.String({ minLength: 1, maxLength: 200, error: 'name must be 1 to 200 characters' }),
          characterId: t.Optional(t.String()),
        }),
        detail: { summary: 'Start a conversation (name: character name and an ISO timestamp), optionally bound to a character' },
      },
    )
    .get(
      '',
      async ({ user, query, set }) => {
        const limit = query.limit ?? CONVERSATION_PAGE_DEFAULT
        const offset = query.offset ?? 0
        // One row more than asked tells whether another page follows, without a count over the whole list.
        const rows = await conversationsOf(sql, user.id, { limit: limit + 1, offset })
        if (rows.length > limit) set.headers['x-next-offset'] = String(offset + limit)
        return rows.slice(0, limit).map(toConversation)
      },
      {
        auth: true,
        query: t.Object({
          limit: t.Optional(t.Integer({ minimum: 1, maximum: CONVERSATION_PAGE_MAX, error: `limit must be a whole number from 1 to ${CONVERSATION_PAGE_MAX}` })),
          offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000, error: 'offset must be a whole number from 0 to 1000000' })),
        }),
        detail: {
          summary: `The caller's conversations, newest first: at most \`limit\` (default ${CONVERSATION_PAGE_DEFAULT}) from \`offset\`; an x-next-offset header when more follow`,
        },
      },
    )
    .get(
      '/:id',
      async ({ user, params, query }) => {
        const conversation = await conversationOf(user.id, params.id)
        const page = await messagePage(sql, user.id, conversation.id, {
          limit: query.messageLimit ?? 15,
          offset: query.messageOffset ?? 0,
          direction: query.messageDirection ?? 'desc',
        })
        return { id: conversation.id, name: conversation.name, characterId: conversation.character_id, ...page }
      },
      {
        auth: true,
        query: t.Object({
          messageLimit: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'messageLimit must be an integer from 1 to 100' })),
          messageOffset: t.Optional(t.Integer({ minimum: 0, error: 'messageOffset must be an integer of 0 or more' })),
          messageDirection: t.Optional(t.Union([t.Literal('asc'), t.Literal('desc')], { error: 'messageDirection must be asc or desc' })),
        }),
        detail: { summary: 'A conversation with one page of messages (default 15, newest first) and the total' },
      },
    )
    .get(
      '/:id/messages/:messageId',
      async ({ user, params }) => {
        const message = isUuid(params.id) && isUuid(params.messageId) ? await ownMessage(sql, user.id, params.id, params.messageId) : null
        if (!message) throw notFound('Message not found')
        return message
      },
      { auth: true, detail: { summary: 'One message with its status, for polling a reply that is still being written' } },
    )
    .get(
      '/:id/messages/:messageId/stream',
      async function* ({ user, params, set, request }) {
        const message = isUuid(params.id) && isUuid(params.messageId) ? await ownMessage(sql, user.id, params.id, params.messageId) : null
        if (!message) throw notFound('Message not found')
        streamHeaders(set)
        // At once, so the stream is open (headers sent, proxies see it alive) before the first delta is due.
        yield sse({ event: 'start', data: { botMessageId: message.id } })
        for await (const item of ctx.relay.read(message.id, HEARTBEAT_MS, request.signal))
          yield 'outcome' in item ? outcomeEvent(message.id, item.outcome) : feedEvent(item)
      },
      {
        auth: true,
        detail: {
          summary:
            'A reply as server-sent events, from whichever instance writes it: start {botMessageId}, its help block and every delta so far, then each new one, then done or error (as /chat). A finished reply comes whole',
        },
      },
    )
    .delete(
      '/:id/timeout-messages',
      async ({ user, params }) => {
        const conversation = await conversationOf(user.id, params.id)
        return { deletedCount: await deleteStaleReplies(sql, user.id, conversation.id) }
      },
      { auth: true, detail: { summary: 'Remove replies that never finished (PENDING or empty for over 4 minutes)' } },
    )
    .delete(
      '/:id/messages',
      async ({ user, params }) => {
        const conversation = await conversationOf(user.id, params.id)
        return { deletedCount: await deleteAllMessages(sql, user.id, conversation.id) }
      },
      {
        // Spec §6: "Delete All Messages" is a developer tool; it still only reaches the caller's own conversations.
        auth: ['ADMIN', 'DEVELOPER'],
        detail: { summary: 'Developer tool: delete every message of an own conversation' },
      },
    )
    .get(
      '/:id/character/:characterId/hello',
      async ({ user, params, query }) => {
        if (!isClientDateTime(query.currentDateTime)) throw badRequest(CLIENT_DATE_TIME_HINT)
        const newChatbotMessage = await helloMessage(deps, {
          userId: user.id,
          conversationId: params.id,
          characterId: params.characterId,
          currentDateTime: query.currentDateTime,
        })
        return { newChatbotMessage }
      },
      {
        auth: true,
        query: t.Object({ currentDateTime: clientDateTime }),
        detail: { summary: "The character's opening message of an empty conversation, saved as its first message" },
      },
    )
    .post(
      '/:id/character/:characterId/chat',
      async function* ({ user, params, body, query, set, request }) {
        if (!isClientDateTime(body.currentDateTime)) throw badRequest(CLIENT_DATE_TIME_HINT)
        // Everything that can refuse the message happens before the first yield, so refusals are plain JSON errors.
        const reply = await sendMessage(deps, {
          userId: user.id,
          conversationId: params.id,
          characterId: params.characterId,
          text: body.text ?? '',
          currentDateTime: body.currentDateTime,
          fileIds: (body.files ?? []).map((f) => f.id),
          geoLocation: body.geoLocation,
          timeZone: body.timeZone,
        })
        ctx.replies.track(reply.botMessage.id, reply.outcome)

        return yield* answer(reply, query.sse, set, request)
      },
      {
        auth: true,
        body: t.Object({
          text: t.Optional(t.String({ maxLength: MESSAGE_MAX_CHARS, error: `text must be at most ${MESSAGE_MAX_CHARS} characters` })),
          currentDateTime: clientDateTime,
          files: t.Optional(t.Array(t.Object({ id: t.String() }), { maxItems: 3, error: 'files: at most 3 images per message' })),
          geoLocation: t.Optional(
            t.Object({
              latitude: t.Number({ minimum: -90, maximum: 90, error: 'latitude must be between -90 and 90' }),
              longitude: t.Number({ minimum: -180, maximum: 180, error: 'longitude must be between -180 and 180' }),
            }),
          ),
          // Any string: an unknown or malformed zone only means help lines are chosen another way.
          timeZone: t.Optional(t.String({ description: "The browser's IANA time zone, e.g. America/New_York" })),
        }),
        query: t.Object({ sse: t.Optional(t.Boolean({ error: 'sse must be true or false' })) }),
        detail: {
          summary: 'Send a message; the reply streams as server-sent events (start, help, delta, heartbeat, done | error), or as JSON with ?sse=false. A message about suicide or self-harm gets a reply that opens with a help block (its `help`): warm words and the local crisis lines, chosen by the country setting, then timeZone, then language',
        },
      },
    )
    .post(
      '/:id/character/:characterId/regenerate',
      async function* ({ user, params, body, query, set, request }) {
        if (!isClientDateTime(body.currentDateTime)) throw badRequest(CLIENT_DATE_TIME_HINT)
        const reply = await regenerateReply(deps, {
          userId: user.id,
          conversationId: params.id,
          characterId: params.characterId,
          currentDateTime: body.currentDateTime,
          timeZone: body.timeZone,
        })
        return yield* answer(reply, query.sse, set, request)
      },
      {
        auth: true,
        body: t.Object({ currentDateTime: clientDateTime, timeZone: t.Optional(t.String({ description: "The browser's IANA time zone, e.g. America/New_York" })) }),
        query: t.Object({ sse: t.Optional(t.Boolean({ error: 'sse must be true or false' })) }),
        detail: {
          summary:
            'A new version of the last reply, counted like a new message (given back if the model fails); the earlier versions are kept. Answers like /chat',
        },
      },
    )
    .put(
      '/:id/character/:characterId/messages/:messageId',
      async function* ({ user, params, body, query, set, request }) {
        if (!isClientDateTime(body.currentDateTime)) throw badRequest(CLIENT_DATE_TIME_HINT)
        const reply = await editAndResend(deps, {
          userId: user.id,
          conversationId: params.id,
          characterId: params.characterId,
          currentDateTime: body.currentDateTime,
          text: body.text,
          messageId: params.messageId,
          timeZone: body.timeZone,
        })
        return yield* answer(reply, query.sse, set, request)
      },
      {
        auth: true,
        body: t.Object({
          text: t.String({ minLength: 1, maxLength: 4000, error: 'text must be 1 to 4000 characters' }),
          currentDateTime: clientDateTime,
          timeZone: t.Optional(t.String({ description: "The browser's IANA time zone, e.g. America/New_York" })),
        }),
        query: t.Object({ sse: t.Optional(t.Boolean({ error: 'sse must be true or false' })) }),
        detail: {
          summary:
            "Edit the caller's last message and resend it: the old reply is replaced, counted like a new message (given back if the model fails). Answers like /chat",
        },
      },
    )
    .get(
      '/:id/messages/:messageId/versions',
      async ({ user, params }) => {
        const versions = isUuid(params.id) && isUuid(params.messageId) ? await replyVersions(sql, user.id, params.id, params.messageId) : null
        if (!versions) throw notFound('Message not found')
        return { versions }
      },
      { auth: true, detail: { summary: 'Every version of a reply, oldest first, with the memories and people each drew on' } },
    )
}
