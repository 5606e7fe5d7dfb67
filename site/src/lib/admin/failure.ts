// The shared wrapper's alert (spec §8) as a title and text, for failures shown inside a modal dialog: a
// second modal over a Radix dialog could not take focus or clicks.
import { ApiError, alertMessage } from '../api'
import { t } from '../clientI18n'

export interface Failure {
  title: string
  message: string
}

export function failureOf(purpose: string, error: unknown, method: string, path: string): Failure {
  const title = t('alerts.failedTitle', { purpose })
  if (!(error instanceof ApiError)) return { title, message: String((error as Error)?.message ?? error) }
  return { title, message: alertMessage(error.status, error.message, method, `${method} /api/v1${path}`) }
}
