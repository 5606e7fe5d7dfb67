// The chips under a reply: the people of the graph and the memories that went into its prompt. A memory chip opens
// the memory as it is now (or says it was forgotten); a person chip opens their memories in settings.
import { useRef, useState } from 'react'
import { Dialog } from '../Dialog'
import { t } from '../../lib/clientI18n'
import { api, ApiError } from '../../lib/api'
import type { ReplySources as Sources } from './types'

interface OpenMemory {
  id: string
  label: string
  /** Null once the memory has been forgotten. */
  text: string | null
}

export const personChip = (p: { name: string; types: string[] }) => (p.types.length ? `${p.name} · ${p.types[0]}` : p.name)

export function ReplySources({ sources }: { sources: Sources | null | undefined }) {
  const [open, setOpen] = useState<OpenMemory | null>(null)
  // The dialog is opened from code, after the memory is fetched, so focus is handed back to the chip by hand.
  const opener = useRef<HTMLElement | null>(null)
  const close = () => {
    setOpen(null)
    setTimeout(() => opener.current?.focus(), 0)
  }
  if (!sources || (!sources.memories.length && !sources.people.length)) return null

  async function show(memory: Sources['memories'][number], chip: HTMLElement) {
    opener.current = chip
    try {
      const now = await api<{ text: string; label: string }>(`/memories/${memory.id}`, { silent: true })
      setOpen({ id: memory.id, label: now.label, text: now.text })
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setOpen({ id: memory.id, label: memory.label, text: null })
    }
  }

  return (
    <>
      <ul className="source-chips" aria-label={t('memories.chipsLabel')}>
        {sources.people.map((p) => (
          <li key={`p-${p.id}`}>
            <a className="source-chip person" href={`/app/settings/memories?search=${encodeURIComponent(p.name)}`}>{personChip(p)}</a>
          </li>
        ))}
        {sources.memories.map((m) => (
          <li key={`m-${m.id}`}>
            <button type="button" className="source-chip" onClick={(e) => show(m, e.currentTarget)} aria-label={t('memories.openMemory', { label: m.label })}>
              {m.label}
            </button>
          </li>
        ))}
      </ul>
      <Dialog
        open={open !== null}
        onOpenChange={(o) => !o && close()}
        title={open?.label ?? ''}
        actions={
          <>
            <button type="button" className="btn btn-ghost" onClick={close}>{t('common.close')}</button>
            {open?.text && <a className="btn" href={`/app/settings/memories?memory=${open.id}`}>{t('memories.manage')}</a>}
          </>
        }
      >
        {open && (open.text ? <p className="memory-quote">{open.text}</p> : <p className="muted">{t('memories.memoryGone')}</p>)}
      </Dialog>
    </>
  )
}
