// A failure shown in place (inside a dialog), worded like the shared wrapper's alerts.
import type { Failure } from '../../lib/admin/failure'

export function InlineAlert({ failure }: { failure: Failure | null }) {
  if (!failure) return null
  return (
    <div className="admin-notice admin-notice-error" role="alert">
      <strong>{failure.title}</strong>
      <div>{failure.message}</div>
    </div>
  )
}
