import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { HttpError } from '../http/errors'
import { ModelFailure } from '../llm/provider'
import { DESCRIPTION_MAX, STORY_ANSWER_MAX, USER_NAME_MAX, requiredText } from '../onboarding/input'
import { PREFERRED_LANGUAGES, toLanguage } from '../onboarding/language'
import { improveDescription } from '../onboarding/improveDescription'
import { continueStory, storyTelling } from '../onboarding/storyTelling'
import {
  deleteTrainingData,
  findTrainingData,
  saveImprovedDescription,
  saveUserName,
  toTrainingData,
} from '../onboarding/trainingData'

/** A model that fails is spec §8's BotResponseFailureException; its details (hosts, statuses) stay in the log. */
async function modelCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof ModelFailure)) throw error
    console.warn(`Onboarding model call failed: ${error.message}`)
    throw new HttpError(502, 'BotResponseFailureException', 'No response was returned from the model')
  }
}

export const trainingDataRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx

  return new Elysia({ prefix: '/chatbots/training-data', tags: ['Training data'] })
    .use(authGuard(ctx))
    .get('', async ({ user }) => toTrainingData(await findTrainingData(sql, user.id)), {
      auth: true,
      detail: { summary: 'The name and ideal-self description onboarding collected (nulls before the first answer)' },
    })
    .delete(
      '',
      async ({ user }) => {
        await deleteTrainingData(sql, user.id)
        return { ok: true }
      },
      { auth: true, detail: { summary: 'Delete the training data and the story (characters stay)' } },
    )
    .post(
      '/user-name',
      async ({ user, body }) => toTrainingData(await saveUserName(sql, user.id, requiredText(body.userName, 'userName', USER_NAME_MAX))),
      {
        auth: true,
        body: t.Object({ userName: t.String({ error: 'userName is required' }) }),
        detail: { summary: 'Save the name the ideal self calls the user (1 to 50 characters); returns the training data' },
      },
    )
    .post(
      '/improved-ideal-self-description',
      async ({ user, body }) => {
        const description = requiredText(body.idealSelfDescription, 'idealSelfDescription', DESCRIPTION_MAX)
        const data = await findTrainingData(sql, user.id)
        const improved = await modelCall(() =>
          improveDescription(ctx.model.provider, {
            userName: data?.user_name ?? null,
            description,
            preferredLanguage: data?.preferred_language ?? null,
          }),
        )
        return toTrainingData(await saveImprovedDescription(sql, user.id, description, improved))
      },
      {
        auth: true,
        body: t.Object({ idealSelfDescription: t.String({ error: 'idealSelfDescription is required' }) }),
        detail: {
          summary:
            'Have the model turn the description (1 to 1000 characters) into a role name and description; stores and returns the training data. 502 BotResponseFailureException when the model fails (nothing stored).',
        },
      },
    )
    .get('/story-telling', ({ user }) => storyTelling(sql, user.id), {
      auth: true,
      detail: { summary: 'The story so far: entries [{role GUIDE|USER, content, createdAt}] and isProcessCompleted' },
    })
    .post(
      '/story-telling',
      ({ user, body }) =>
        modelCall(() =>
          continueStory({ sql, model: ctx.model.provider, exchanges: cfg.storyExchanges }, user.id, {
            text: body.text ?? '',
            language: toLanguage(body.userPreferredLanguage),
            receiveHelloMessage: body.receiveHelloMessage ?? false,
            timeZone: body.timeZone,
          }),
        ),
      {
        auth: true,
        body: t.Object({
          text: t.Optional(t.String({ maxLength: STORY_ANSWER_MAX, error: `text must be at most ${STORY_ANSWER_MAX} characters` })),
          userPreferredLanguage: t.Optional(
            t.Union(PREFERRED_LANGUAGES.map((l) => t.Literal(l)), { error: `userPreferredLanguage must be one of ${PREFERRED_LANGUAGES.join(', ')}` }),
          ),
          receiveHelloMessage: t.Optional(t.Boolean()),
          // Any string: an unknown zone only means help lines are chosen another way.
          timeZone: t.Optional(t.String({ description: "The browser's IANA time zone, for help lines should the answer speak of suicide or self-harm" })),
        }),
        detail: {
          summary:
            "One step of the story: with no entries (and empty text or receiveHelloMessage) the guide's opening question, otherwise the answer and the guide's next line; after the last answer the closing line and isProcessCompleted true. An answer about suicide or self-harm gets help lines instead of the next question (an entry with help true; no model call, the story does not close on it). Returns {entries, newEntries, isProcessCompleted}. 502 BotResponseFailureException when the model fails (nothing stored).",
        },
      },
    )
}
