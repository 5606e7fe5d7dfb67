// "What your Ideal Self remembers" (settings): every memory grouped by the person it is about, then by kind;
// search, edit, forget one, forget everything, download. A chip under a reply links here with ?memory=<id>.
import { useEffect, useMemo, useRef, useState } from 'react'
import { toast } from '../lib/toast'
import { ConfirmDialog } from '../components/Dialog'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { MemoryEditor, type MemoryDraft } from '../components/memories/MemoryEditor'
import { groupMemories, KINDS, type Memory } from '../components/memories/groups'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { DATE_FORMATS, formatInZone } from '../lib/dates'

interface Props {
  initial: Memory[]
  /** A memory to show first (opened from a chip). */
  focusId: string | null
  initialSearch: string
}

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e))

function Manager(props: Props) {
  const t = useT()
  const [memories, setMemories] = useState(props.initial)
  const [search, setSearch] = useState(props.initialSearch)
  const [results, setResults] = useState<Memory[] | null>(null)
  const [editing, setEditing] = useState<Memory | null>(null)
  const [forgetting, setForgetting] = useState<Memory | null>(null)
  const [forgetAll, setForgetAll] = useState(false)
  const [busy, setBusy] = useState(false)
  const focused = useRef<HTMLLIElement>(null)

  // Searching is the server's (it knows Chinese and kinds); an empty box shows everything.
  useEffect(() => {
    const query = search.trim()
    if (!query) return setResults(null)
    const controller = new AbortController()
    const timer = setTimeout(() => {
      api<{ memories: Memory[] }>('/memories', { query: { search: query }, silent: true, signal: controller.signal })
        .then((r) => setResults(r.memories))
        .catch((e) => (e as Error).name !== 'AbortError' && toast.error(t('memories.failed', { message: messageOf(e) })))
    }, 200)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [search, memories])

  useEffect(() => focused.current?.scrollIntoView({ block: 'center' }), [])

  const shown = results ?? memories
  const groups = useMemo(() => groupMemories(shown), [shown])

  async function save(memory: Memory, draft: MemoryDraft) {
    setBusy(true)
    try {
      const updated = await api<Memory>(`/memories/${memory.id}`, { method: 'PATCH', body: draft, silent: true })
      setMemories((list) => [updated, ...list.filter((m) => m.id !== memory.id)])
      setEditing(null)
      toast.success(t('memories.saved'))
    } catch (e) {
      toast.error(t('memories.failed', { message: messageOf(e) }))
    } finally {
      setBusy(false)
    }
  }

  async function forget(memory: Memory) {
    setBusy(true)
    try {
      await api(`/memories/${memory.id}`, { method: 'DELETE', silent: true })
      setMemories((list) => list.filter((m) => m.id !== memory.id))
      setForgetting(null)
      toast.success(t('memories.forgotten'))
    } catch (e) {
      toast.error(t('memories.failed', { message: messageOf(e) }))
    } finally {
      setBusy(false)
    }
  }

  async function forgetEverything() {
    setBusy(true)
    try {
      await api('/memories', { method: 'DELETE', silent: true })
      setMemories([])
      setForgetAll(false)
      toast.success(t('memories.forgottenAll'))
    } catch (e) {
      toast.error(t('memories.failed', { message: messageOf(e) }))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="memories">
      <p className="muted">{t('memories.intro')}</p>
      <div className="memories-tools">
        <label className="field" htmlFor="memory-search">
          <span>{t('memories.search')}</span>
          <input id="memory-search" type="search" value={search} placeholder={t('memories.searchPlaceholder')} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <p className="muted" role="status">{t('memories.count', { count: shown.length })}</p>
      </div>

      {shown.length === 0 ? (
        <p className="card memories-empty">{search.trim() ? t('memories.noMatch', { query: search.trim() }) : t('memories.empty')}</p>
      ) : (
        groups.map((group) => (
          <section key={group.key} className="memory-group" aria-labelledby={`group-${group.key}`}>
            <h2 id={`group-${group.key}`}>
              {group.person ? group.person.name : t('memories.groupYou')}
              {group.person?.types.length ? <span className="muted"> · {group.person.types.join(', ')}</span> : null}
            </h2>
            {group.kinds.map(({ kind, items }) => (
              <div key={kind} className="memory-kind">
                <h3>{t(`memories.kind_${kind}`)}</h3>
                <ul className="card memory-list">
                  {items.map((m) => (
                    <li key={m.id} id={`memory-${m.id}`} ref={m.id === props.focusId ? focused : undefined} className={m.id === props.focusId ? 'memory focus' : 'memory'} data-testid="memory">
                      <div className="memory-body">
                        <p className="memory-text">{m.text}</p>
                        <p className="muted memory-meta">
                          <span className="chip">{m.label}</span>{' '}
                          {m.sourceConversationId ? t('memories.from', { date: formatInZone(m.createdAt, DATE_FORMATS.dayDivider) }) : null}
                        </p>
                      </div>
                      <div className="memory-actions">
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(m)} aria-label={`${t('memories.edit')}: ${m.label}`}>{t('memories.edit')}</button>
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => setForgetting(m)} aria-label={`${t('memories.delete')}: ${m.label}`}>{t('memories.delete')}</button>
                      </div>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        ))
      )}

      <div className="memories-footer">
        <a className="btn btn-ghost" href="/api/v1/memories/export" download>{t('memories.export')}</a>
        <button type="button" className="btn btn-danger" disabled={memories.length === 0} onClick={() => setForgetAll(true)}>{t('memories.forgetAll')}</button>
      </div>

      <MemoryEditor memory={editing} kinds={KINDS} busy={busy} onCancel={() => setEditing(null)} onSave={save} />
      <ConfirmDialog
        open={forgetting !== null}
        onOpenChange={(open) => !open && setForgetting(null)}
        title={t('memories.deleteTitle')}
        description={t('memories.deleteText')}
        confirmText={t('memories.delete')}
        cancelText={t('memories.cancel')}
        onConfirm={() => forgetting && forget(forgetting)}
        danger
        busy={busy}
      >
        {forgetting && <p className="memory-quote">“{forgetting.text}”</p>}
      </ConfirmDialog>
      <ConfirmDialog
        open={forgetAll}
        onOpenChange={setForgetAll}
        title={t('memories.forgetAllTitle')}
        description={t('memories.forgetAllText')}
        confirmText={t('memories.forgetAll')}
        cancelText={t('memories.cancel')}
        onConfirm={forgetEverything}
        danger
        busy={busy}
      />
    </div>
  )
}

export default function MemoriesManager(props: Props) {
  return (
    <ErrorBoundary>
      <Manager {...props} />
    </ErrorBoundary>
  )
}
