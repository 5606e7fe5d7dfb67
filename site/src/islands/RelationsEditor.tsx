// Relationship editor (spec §2, §4 "Relationship graph", §5): a card per person with relationship types,
// closeness from Distant to Intimate, and removal; saved, then the CONFIRM_RELATIONS stage is marked.
import { useEffect, useState } from 'react'
import * as Slider from '@radix-ui/react-slider'
import * as Tooltip from '@radix-ui/react-tooltip'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Dialog } from '../components/Dialog'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { showAlert } from '../lib/alertDialog'
import {
  CLOSENESS_MAX, CLOSENESS_MIN, cardsOf, chipsShown, everyCardHasAType, graphFrom, toggleType,
  type Graph, type RelationCard,
} from '../components/relations/graph'

export interface RelationType {
  type: string
  label: string
  description: string
  colour: string
}

interface Props {
  characterId: string
  mode: 'onboarding' | 'edit'
  returnTo: string
  types: RelationType[]
  /** The upload page, coming back here: chat history can be imported again at any time. */
  importHref: string
}

interface ImportState {
  status: 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'SUPERSEDED'
  error: string | null
}

const POLL_MS = 3000

function Editor({ characterId, mode, returnTo, types, importHref }: Props) {
  const t = useT()
  const [ready, setReady] = useState<boolean | null>(null)
  // Undefined until loaded; null when nothing was ever imported (skipped at onboarding).
  const [lastImport, setLastImport] = useState<ImportState | null | undefined>(undefined)
  const [graph, setGraph] = useState<Graph | null>(null)
  const [cards, setCards] = useState<RelationCard[]>([])
  const [picking, setPicking] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const typeOf = new Map(types.map((x) => [x.type, x]))

  // Not ready yet: refetch every 3 s; a 404 leaves for character selection; other errors retry after 3 s.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>
    let stopped = false
    async function load() {
      try {
        const res = await api<{ isReady: boolean; data: Graph; import: ImportState | null }>(`/chatbots/characters/${characterId}/relations`, { silent: true })
        if (stopped) return
        setReady(res.isReady)
        setLastImport(res.import)
        if (res.isReady) {
          setGraph(res.data)
          setCards(cardsOf(res.data))
          return
        }
        // Nothing imported yet, or the only analysis failed: nothing will change by waiting.
        if (res.import === null || res.import.status === 'FAILED') return
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return location.assign('/app/select-character')
      }
      if (!stopped) timer = setTimeout(load, POLL_MS)
    }
    load()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [characterId])

  const update = (id: string, patch: (c: RelationCard) => RelationCard) => setCards((list) => list.map((c) => (c.relationship.id === id ? patch(c) : c)))
  const valid = cards.length > 0 && everyCardHasAType(cards)

  async function save() {
    if (!graph || !valid) return
    setBusy(true)
    try {
      await api(`/chatbots/characters/${characterId}/relations`, { method: 'PATCH', body: graphFrom(graph, cards), purpose: t('relations.save') })
    } catch {
      setBusy(false)
      return
    }
    try {
      await api(`/chatbots/characters/${characterId}/stage-completions/CONFIRM_RELATIONS`, { method: 'PATCH', silent: true })
    } catch (e) {
      setBusy(false)
      await showAlert(t('common.error'), t('relations.stageFailed', { message: e instanceof ApiError ? e.message : String(e) }))
      return
    }
    sessionStorage.setItem('flashToast', t('relations.saved'))
    location.assign(mode === 'onboarding' ? '/app/select-character' : returnTo)
  }

  if (!ready && lastImport !== undefined && (lastImport === null || lastImport.status === 'FAILED')) {
    return (
      <div className="no-history">
        <h1>{lastImport ? t('relations.importFailed') : t('relations.noHistory')}</h1>
        <p className="muted">{lastImport?.error ?? t('relations.noHistoryText')}</p>
        <a className="btn" href={importHref}>{t('relations.importHistory')}</a>
      </div>
    )
  }

  if (!ready) {
    return (
      <div className="analyzing-history" role="status">
        <div className="spinner" />
        <h1>{t('relations.analyzing')}</h1>
        <p className="muted">{t('relations.analyzingText')}</p>
      </div>
    )
  }

  const pickingCard = cards.find((c) => c.relationship.id === picking)
  return (
    <Tooltip.Provider delayDuration={200}>
      <p className="muted">{t('relations.intro')}</p>
      <ul className="relation-cards">
        {cards.map(({ relationship: r, person }) => {
          const { shown, more } = chipsShown(r.types)
          const empty = r.types.length === 0
          const onlyOne = cards.length === 1
          return (
            <li key={r.id} className={empty ? 'relation-card card invalid' : 'relation-card card'} data-testid="relation-card">
              <header>
                <h2>{person.properties.name}</h2>
                <Tooltip.Root>
                  <Tooltip.Trigger asChild>
                    <button
                      type="button"
                      className="icon-btn"
                      aria-disabled={onlyOne}
                      aria-label={onlyOne ? t('relations.cannotRemove') : t('relations.remove')}
                      onClick={() => !onlyOne && setCards((list) => list.filter((c) => c.relationship.id !== r.id))}
                    >
                      ×
                    </button>
                  </Tooltip.Trigger>
                  <Tooltip.Portal>
                    <Tooltip.Content className="tooltip" sideOffset={4}>{onlyOne ? t('relations.cannotRemove') : t('relations.remove')}</Tooltip.Content>
                  </Tooltip.Portal>
                </Tooltip.Root>
              </header>
              <div className="chips" aria-label={t('relations.types')}>
                {shown.map((type) => (
                  <span key={type} className="chip" style={{ borderColor: typeOf.get(type)?.colour, color: typeOf.get(type)?.colour }}>{typeOf.get(type)?.label ?? type}</span>
                ))}
                {more > 0 && <span className="chip more">{t('relations.more', { count: more })}</span>}
                <button type="button" className="chip add" onClick={() => setPicking(r.id)}>{t('relations.addType')}</button>
              </div>
              {empty && <p className="field-error" role="alert">{t('relations.needType', { name: person.properties.name })}</p>}
              <div className="closeness">
                <span id={`closeness-${r.id}`}>{t('relations.closeness')}</span>
                <div className="slider-row">
                  <span className="muted small">{t('relations.distant')}</span>
                  <Slider.Root
                    className="slider"
                    min={CLOSENESS_MIN}
                    max={CLOSENESS_MAX}
                    step={1}
                    value={[r.properties.closeness]}
                    onValueChange={([v]) => update(r.id, (c) => ({ ...c, relationship: { ...c.relationship, properties: { closeness: v } } }))}
                  >
                    <Slider.Track className="slider-track"><Slider.Range className="slider-range" /></Slider.Track>
                    <Slider.Thumb className="slider-thumb" aria-labelledby={`closeness-${r.id}`} aria-valuetext={`${r.properties.closeness} / ${CLOSENESS_MAX}`} />
                  </Slider.Root>
                  <span className="muted small">{t('relations.intimate')}</span>
                </div>
              </div>
            </li>
          )
        })}
      </ul>
      <button type="button" className="btn btn-block" disabled={!valid || busy} onClick={save}>
        {mode === 'onboarding' ? t('relations.continue') : t('relations.save')}
      </button>
      <p className="import-more">
        <a className="text-link" href={importHref}>{t('relations.importMore')}</a>
      </p>
      <Dialog
        open={!!pickingCard}
        onOpenChange={(open) => !open && setPicking(null)}
        title={pickingCard ? t('relations.pickTitle', { name: pickingCard.person.properties.name }) : ''}
        wide
        actions={<button type="button" className="btn" onClick={() => setPicking(null)}>{t('relations.done')}</button>}
      >
        <div className="type-grid">
          {pickingCard &&
            types.map((x) => {
              const on = pickingCard.relationship.types.includes(x.type)
              return (
                <button
                  key={x.type}
                  type="button"
                  className={on ? 'type-option on' : 'type-option'}
                  aria-pressed={on}
                  style={{ borderColor: on ? x.colour : undefined }}
                  onClick={() => update(pickingCard.relationship.id, (c) => ({ ...c, relationship: { ...c.relationship, types: toggleType(c.relationship.types, x.type) } }))}
                >
                  <span className="swatch" style={{ background: x.colour }} aria-hidden="true" />
                  <strong>{x.label}</strong>
                  <span className="muted small">{x.description}</span>
                </button>
              )
            })}
        </div>
      </Dialog>
    </Tooltip.Provider>
  )
}

export default function RelationsEditor(props: Props) {
  return (
    <ErrorBoundary>
      <Editor {...props} />
    </ErrorBoundary>
  )
}
