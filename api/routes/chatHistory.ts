import { Elysia, t } from 'elysia'
import type { AppContext } from '../context'
import { authGuard } from '../http/guard'
import { badRequest, notFound } from '../http/errors'
import { isUuid } from '../http/validation'
import { listImports, startImport } from '../chat-import/analysis/imports'
import { MAX_FILES, analyzeNames, checkUploadLimits, describeProblems, isParsed, readExports } from '../chat-import/analysis/uploads'
import { receiveUpload, stagingDir } from '../chat-import/analysis/incoming'

const USER_NAME_MAX = 200
const userNameTooLong = `userName must be at most ${USER_NAME_MAX} characters`

/** The multipart fields, for the API document: the body is read as a stream, not parsed by the framework. */
const uploadBody = t.Object({
  files: t.Files(),
  userName: t.Optional(t.String({ maxLength: USER_NAME_MAX })),
})

export const chatHistoryRoutes = (ctx: AppContext) => {
  const { sql, cfg } = ctx

  /** Someone else's character, or an id that cannot be one, is simply not found. */
  async function ownCharacter(userId: string, id: string): Promise<string> {
    const [row] = isUuid(id) ? await sql`select 1 from characters where id = ${id} and user_id = ${userId}` : []
    if (!row) throw notFound('Character not found')
    return id
  }

  return new Elysia({ prefix: '/chatbots/characters', tags: ['Chat history'] })
    .use(authGuard(ctx))
    .post(
      '/:id/chat-history',
      async ({ user, params, query, request, set }) => {
        const characterId = await ownCharacter(user.id, params.id)
        // Written to the staging folder as it arrives, then read in a child process: a large export never sits in
        // this process's memory, and its parsing never holds up other requests.
        const upload = await receiveUpload(request, {
          dir: stagingDir(cfg.dataDir),
          maxBytes: cfg.chatHistoryMaxBytes,
          maxFiles: MAX_FILES,
          fileField: 'files',
        })
        try {
          const names = upload.fields.get('userName')
          if (names && (names.length > 1 || names[0].length > USER_NAME_MAX)) throw badRequest(userNameTooLong)
          checkUploadLimits(upload.files)
          const exports = await readExports(upload.files, cfg.chatHistoryMaxBytes)
          const analysis = analyzeNames(exports)
          if (query.analyzeNameOnly) return analysis

          const userName = names?.[0]
          if (!userName?.trim()) throw badRequest('userName is required')
          if (analysis.hasError) throw badRequest(describeProblems(analysis.erroneousFiles))
          if (!analysis.names.includes(userName)) throw badRequest('userName must be one of the names found in the files')
          const started = await startImport(ctx, { userId: user.id, characterId, userName, exports: exports.filter(isParsed) })
          if (!started) throw notFound('Character not found')
          // The job was committed with the import; this process starts on it now rather than at the next poll.
          if (!started.repeated) ctx.jobs.kick()
          set.status = 202
          return { importId: started.id, status: 'PENDING' as const }
        } finally {
          await upload.discard()
        }
      },
      {
        auth: true,
        parse: 'none',
        query: t.Object({ analyzeNameOnly: t.Optional(t.BooleanString()) }),
        detail: {
          requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadBody } } },
          summary: `Upload 1 to ${MAX_FILES} LINE or WhatsApp .txt exports (multipart: files, userName)`,
          description: [
            'Files may be UTF-8, UTF-16 (with or without a byte-order mark) or a legacy encoding such as Big5, GBK, Shift_JIS or Latin-1; the encoding is detected.',
            'With analyzeNameOnly=true nothing is stored: returns {hasError, erroneousFiles: [{fileName, reason, message}], names}, where names are the distinct message authors of the files that are chat exports, in order of first appearance, and erroneousFiles the files that are not, each with its reason: TooLarge (over CHAT_HISTORY_MAX_BYTES), NotText (not text in any encoding) or NotAChatExport.',
            'Without it, userName (one of those names: the user themself) is required and every file must be a chat export; the files are stored, the relations of the character stop being ready, and the analysis is queued: 202 {importId, status: "PENDING"}. Every import is merged into the relationship graph: the same person (same name, or a longer or shorter form of it) is one card, people the user confirmed keep their types and closeness, proposals never confirmed are offered again, new people are added; the speaking style is measured on the user\'s messages of every import. The same files and name again while that import is pending or running return the same importId and start nothing.',
            'Refused with 400: more than 3 files ("at most 3 files"), a name not ending in .txt, and on a real upload any erroneous file. 404 for a character that is not the caller\'s.',
          ].join(' '),
        },
      },
    )
    .get('/:id/chat-history', async ({ user, params }) => listImports(sql, user.id, await ownCharacter(user.id, params.id)), {
      auth: true,
      detail: {
        summary:
          "The character's imports, oldest first: {id, userName, status PENDING|RUNNING|SUCCEEDED|FAILED (SUPERSEDED on imports made before every import was merged), error, fileCount, totalBytes, messageCount, userMessageCount, peopleCount, files [{fileName, sizeBytes, platform, messageCount}], createdAt, finishedAt}",
      },
    })
}
