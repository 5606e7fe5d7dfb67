// Importing a character card (select-character): a .json or .png Character Card V2/V3 becomes a new character,
// which — being the newest — is the Ideal Self the page then shows.
import { useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'

function Importer() {
  const t = useT()
  const input = useRef<HTMLInputElement>(null)
  const hint = useId()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function upload(file: File) {
    setBusy(true)
    setError(null)
    const form = new FormData()
    form.append('file', file)
    try {
      const created = await api<{ name: string }>('/chatbots/characters/card', { method: 'POST', form, silent: true })
      toast.success(t('characterCard.imported', { name: created.name }))
      location.reload()
    } catch (e) {
      setError(t('characterCard.importFailed', { message: e instanceof ApiError ? e.message : String(e) }))
      setBusy(false)
    } finally {
      if (input.current) input.current.value = ''
    }
  }

  return (
    <div className="card-import">
      <button type="button" className="btn btn-ghost" disabled={busy} aria-describedby={hint} onClick={() => input.current?.click()}>
        {t('characterCard.import')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,.png,application/json,image/png"
        hidden
        aria-label={t('characterCard.import')}
        data-testid="card-file"
        onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])}
      />
      <p id={hint} className="muted small">{t('characterCard.importHint')}</p>
      {error && <p className="field-error" role="alert">{error}</p>}
    </div>
  )
}

export default function CharacterCardImport() {
  return (
    <ErrorBoundary>
      <Importer />
    </ErrorBoundary>
  )
}
