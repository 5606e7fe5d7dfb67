// Every kind of durable job the product runs, and the handler that runs it. A feature with long work (chat-history
// analysis, relationship extraction) adds its kind here; workers claim only kinds they have a handler for, so a
// process that does not know a new kind yet leaves its jobs to one that does.
import { BUILD_CHARACTER, buildCharacterJob } from '../characters/buildJob'
import { ANALYZE_CHAT_HISTORY, analyzeChatHistoryJob } from '../chat-import/analysis/importJob'
import { EXTRACT_MEMORIES, extractMemoriesJob } from '../memory/extractJob'
import { BUILD_DATA_EXPORT, buildDataExportJob } from '../self/dataExport'
import type { JobHandler } from './worker'

export const JOB_HANDLERS: Record<string, JobHandler> = {
  [BUILD_CHARACTER]: buildCharacterJob,
  [ANALYZE_CHAT_HISTORY]: analyzeChatHistoryJob,
  [EXTRACT_MEMORIES]: extractMemoriesJob,
  [BUILD_DATA_EXPORT]: buildDataExportJob,
}
