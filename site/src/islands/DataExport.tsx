// "Download my data" (settings): asks the server for an archive, shows the job's progress while it is built, then
// the download link for its 24 hours, and a way to build a fresh one.
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { DATE_FORMATS, formatInZone } from '../lib/dates'
import { formatFileSize } from '../lib/fileSize'

export interface DataExportView {
  id: string
  status: 'PENDING' | 'RUNNING' | 'READY' | 'FAILED'
  expired: boolean
  progress: { done: number; total: number }
  sizeBytes: number | null
  expiresAt: string | null
  downloadUrl: string | null
}

interface Props {
  initial: DataExportView | null
  /** The README's language: the one the page is shown in. */
  language: string
}

const POLL_MS = 2000
const building = (e: DataExportView | null) => e?.status === 'PENDING' || e?.status === 'RUNNING'

function Exporter({ initial, language }: Props) {
  const t = useT()
  const [current, setCurrent] = useState(initial)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!building(current)) return
    const timer = setTimeout(() => {
      api<DataExportView>('/self/data-exports/latest', { silent: true }).then(setCurrent, () => {})
    }, POLL_MS)
    return () => clearTimeout(timer)
  }, [current])

  async function request() {
    setBusy(true)
    try {
      setCurrent(await api<DataExportView>('/self/data-exports', { method: 'POST', body: { language }, silent: true }))
    } catch (e) {
      toast.error(t('dataExport.requestFailed', { message: e instanceof ApiError ? e.message : String(e) }))
    } finally {
      setBusy(false)
    }
  }

  const { done, total } = current?.progress ?? { done: 0, total: 0 }
  const ready = current?.status === 'READY' && !current.expired && current.downloadUrl
  return (
    <section className="data-export card" aria-labelledby="data-export-title" data-testid="data-export">
      <h2 id="data-export-title">{t('dataExport.title')}</h2>
      <p className="muted">{t('dataExport.intro')}</p>
      <div aria-live="polite">
        {building(current) && (
          <>
            <p>{t('dataExport.building', { done, total: total || '…' })}</p>
            <progress max={Math.max(total, 1)} value={done} aria-label={t('dataExport.title')} />
          </>
        )}
        {ready && (
          <p>
            {t('dataExport.ready', {
              size: formatFileSize(current!.sizeBytes ?? 0),
              expires: formatInZone(current!.expiresAt!, DATE_FORMATS.admin),
            })}
          </p>
        )}
        {current?.status === 'READY' && current.expired && <p>{t('dataExport.expired')}</p>}
        {current?.status === 'FAILED' && <p role="alert">{t('dataExport.failed')}</p>}
      </div>
      <div className="data-export-actions">
        {ready && (
          <a className="btn btn-primary" href={current!.downloadUrl!} download data-testid="data-export-download">
            {t('dataExport.download')}
          </a>
        )}
        {!building(current) && (
          <button type="button" className={ready ? 'btn' : 'btn btn-primary'} onClick={request} disabled={busy}>
            {current ? t('dataExport.rebuild') : t('dataExport.request')}
          </button>
        )}
      </div>
    </section>
  )
}

export default function DataExport(props: Props) {
  return (
    <ErrorBoundary>
      <Exporter {...props} />
    </ErrorBoundary>
  )
}
