import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import type { UserRow } from '../users/users'
import { DESCRIPTION_MAX, USER_NAME_MAX, requiredText } from '../onboarding/input'
import {
  characterReadiness,
  createCharacter,
  deleteCharacter,
  editPrompts,
  findCharacter,
  listCharacters,
  rebuildCharacters,
  retryBuild,
  type Character,
} from '../characters/characters'
import { rebuildCharacterPrompt } from '../characters/characterPrompt'
import { questionnaireFor, saveAnswers } from '../characters/questionnaire'
import { CHARACTER_STAGES, completeStage } from '../characters/stages'
import { buildCardV3, cardPng, parseCard } from '../characters/characterCard'
import { characterAsCard, importCard } from '../characters/cards'

const PROMPT_MAX = 50_000

export const characterRoutes = (ctx: AppContext) => {
  const { sql } = ctx
  const staff = ['ADMIN', 'DEVELOPER'] as const
  const isStaff = (user: UserRow) => (staff as readonly string[]).includes(user.role)

  /** A malformed id cannot name a character of the caller's: the same 404 as someone else's character. */
  function characterId(id: string): string {
    if (!isUuid(id)) throw notFound('Character not found')
    return id
  }

  async function characterOf(userId: string, id: string, includePrompt = false): Promise<Character> {
    const character = await findCharacter(sql, userId, id, includePrompt)
    if (!character) throw notFound('Character not found')
    return character
  }

  const created = async (userId: string, id: string) => {
    // The job was committed with the character; this process starts on it now rather than at the next poll.
    ctx.jobs.kick()
    return { characterId: id, ...(await characterOf(userId, id)) }
  }

  return new Elysia({ prefix: '/chatbots/characters', tags: ['Characters'] })
    .use(authGuard(ctx))
    .post(
      '',
      async ({ user, body }) => {
        const userName = requiredText(body.userName, 'userName', USER_NAME_MAX)
        const description = requiredText(body.idealSelfDescription, 'idealSelfDescription', DESCRIPTION_MAX)
        return created(user.id, await createCharacter(sql, user.id, userName, description))
      },
      {
        auth: true,
        // The build always starts at once; chat history uploaded later re-assembles the prompt (rebuildCharacterPrompt).
        query: t.Object({ skipChatHistoryUpload: t.Optional(t.BooleanString()) }),
        body: t.Object({
          userName: t.String({ error: 'userName is required' }),
          idealSelfDescription: t.String({ error: 'idealSelfDescription is required' }),
        }),
        detail: {
          summary:
            'Create a character from the name and ideal-self description (also saved as training data) and queue its build; returns {characterId, ...character} with isReady false',
        },
      },
    )
    .get('', ({ user }) => listCharacters(sql, user.id), {
      auth: true,
      detail: { summary: 'The characters, oldest first, with isReady, characterGenerationJobs and stageCompletions' },
    })
    .post('/rebuild', async ({ user }) => created(user.id, await rebuildCharacters(sql, user.id)), {
      auth: [...staff],
      detail: {
        summary: 'Developer tool: delete all own characters and build a fresh one from the training data (400 "No characters to rebuild")',
      },
    })
    .post(
      '/card',
      async ({ user, body, set }) => {
        const card = parseCard(new Uint8Array(await body.file.arrayBuffer()))
        set.status = 201
        const id = await importCard(sql, user.id, card)
        return { characterId: id, ...(await characterOf(user.id, id)) }
      },
      {
        auth: true,
        body: t.Object({ file: t.File({ error: 'file is required' }) }),
        detail: {
          summary:
            'Import a Character Card V2 or V3 (JSON, or PNG with a ccv3/chara text chunk) as a new ready character; 400 InvalidCard or CardTooLarge names the problem',
        },
      },
    )
    .get(
      '/:id/card',
      async ({ user, params, query }) => {
        const card = await characterAsCard(sql, user.id, characterId(params.id))
        if (!card) throw notFound('Character not found')
        const v3 = buildCardV3(card)
        const file = card.name.replace(/[^\p{L}\p{N} _-]/gu, '').trim().slice(0, 60) || 'character'
        const png = query.format === 'png'
        return new Response(png ? cardPng(v3) : JSON.stringify(v3, null, 2), {
          headers: {
            'content-type': png ? 'image/png' : 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="card.${png ? 'png' : 'json'}"; filename*=UTF-8''${encodeURIComponent(file)}.${png ? 'png' : 'json'}`,
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
          },
        })
      },
      {
        auth: true,
        query: t.Object({
          format: t.Optional(t.Union([t.Literal('json'), t.Literal('png')], { error: 'format must be json or png' })),
        }),
        detail: {
          summary:
            "The owner's character as a Character Card V3 (chara_card_v3): JSON, or PNG with the card in its ccv3 and chara text chunks; the confirmed people are lorebook entries",
        },
      },
    )
    .get(
      '/:id',
      async ({ user, params, query }) => {
        const id = characterId(params.id)
        if (!query.selectIsReady) return characterOf(user.id, id, query.includePrompt === true && isStaff(user))
        const readiness = await characterReadiness(sql, user.id, id)
        if (!readiness) throw notFound('Character not found')
        return readiness
      },
      {
        auth: true,
        query: t.Object({ includePrompt: t.Optional(t.BooleanString()), selectIsReady: t.Optional(t.BooleanString()) }),
        detail: {
          summary:
            'One character; includePrompt=true adds prompt and idealSelfPrompt for ADMIN and DEVELOPER; selectIsReady=true returns only {id, isReady}',
        },
      },
    )
    .delete(
      '/:id',
      async ({ user, params }) => {
        if (!(await deleteCharacter(sql, user.id, characterId(params.id)))) throw notFound('Character not found')
        return { ok: true }
      },
      { auth: true, detail: { summary: 'Delete a character with its questionnaire, stages and jobs' } },
    )
    .patch(
      '/:id/prompt',
      async ({ user, params, body }) => {
        if (body.prompt === undefined && body.idealSelfPrompt === undefined) throw badRequest('Send prompt or idealSelfPrompt')
        const id = characterId(params.id)
        if (!(await editPrompts(sql, user.id, id, body))) throw notFound('Character not found')
        return characterOf(user.id, id, true)
      },
      {
        auth: [...staff],
        body: t.Object({
          prompt: t.Optional(t.String({ maxLength: PROMPT_MAX, error: `prompt must be at most ${PROMPT_MAX} characters` })),
          idealSelfPrompt: t.Optional(t.String({ maxLength: PROMPT_MAX, error: `idealSelfPrompt must be at most ${PROMPT_MAX} characters` })),
        }),
        detail: {
          summary:
            'Developer tool: set the system prompt, or the ideal-self prompt (the system prompt is then re-assembled around it); returns the character with both',
        },
      },
    )
    .post(
      '/:id/retry-build',
      async ({ user, params }) => {
        const id = characterId(params.id)
        if (!(await retryBuild(sql, user.id, id))) throw notFound('Character not found')
        ctx.jobs.kick()
        return characterOf(user.id, id)
      },
      { auth: true, detail: { summary: 'Queue another build of the character, e.g. after a failed one (409 while one is queued or running)' } },
    )
    .get(
      '/:id/questionnaire',
      async ({ user, params }) => {
        const questionnaire = await questionnaireFor(sql, user.id, characterId(params.id))
        if (!questionnaire) throw notFound('Character not found')
        return questionnaire
      },
      {
        auth: true,
        detail: {
          summary:
            "The character's questionnaire {id, version, questions [{id, text, type text|scale, …}], answers}, created on first read in the user's language",
        },
      },
    )
    .patch(
      '/:id/questionnaire/:questionnaireId',
      async ({ user, params, body }) => {
        const id = characterId(params.id)
        if (!isUuid(params.questionnaireId)) throw notFound('Questionnaire not found')
        const saved = await saveAnswers(sql, user.id, id, params.questionnaireId, body.answers)
        if (!saved) throw notFound('Questionnaire not found')
        if (saved.characterReady) await rebuildCharacterPrompt(sql, id)
        return saved.questionnaire
      },
      {
        auth: true,
        body: t.Object({
          answers: t.Record(t.String(), t.Unknown(), { error: 'answers must be an object of question ids and answers' }),
        }),
        detail: {
          summary:
            'Save answers (text up to the question length, empty clears; scales as whole numbers in range); they are merged with earlier ones and feed the prompt',
        },
      },
    )
    .patch(
      '/:id/stage-completions/:stage',
      async ({ user, params }) => {
        const stageCompletions = await completeStage(sql, user.id, characterId(params.id), params.stage)
        if (!stageCompletions) throw notFound('Character not found')
        return { stageCompletions }
      },
      {
        auth: true,
        params: t.Object({
          id: t.String(),
          stage: t.Union(CHARACTER_STAGES.map((s) => t.Literal(s)), { error: `stage must be one of ${CHARACTER_STAGES.join(', ')}` }),
        }),
        detail: { summary: 'Mark a setup stage complete (e.g. CONFIRM_RELATIONS); returns {stageCompletions: [{stage, completedAt}]}' },
      },
    )
}
