// The first onboarding steps: the person's name, its confirmation, the Ideal Self's description, the story's opening.
import { useEffect, useState } from 'react'
import { useT } from '../../lib/reactI18n'
import { api, ApiError } from '../../lib/api'
import { showAlert } from '../../lib/alertDialog'
import { go, GuideSays } from './shared'

export function GetUsername({ initial }: { initial: string }) {
  const t = useT()
  const [name, setName] = useState(initial)
  const [busy, setBusy] = useState(false)
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!name.trim()) return
    setBusy(true)
    try {
      await api('/chatbots/training-data/user-name', { body: { userName: name.trim() }, purpose: t('onboarding.hi') })
      go('name-confirmation')
    } catch {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} className="step">
      <GuideSays text={t('onboarding.askName')} />
      <label className="field" htmlFor="ob-name">
        <span className="sr-only">{t('onboarding.namePlaceholder')}</span>
        <input id="ob-name" type="text" value={name} maxLength={50} placeholder={t('onboarding.namePlaceholder')} autoComplete="given-name" autoFocus onChange={(e) => setName(e.target.value)} />
      </label>
      <button className="btn btn-block" type="submit" disabled={!name.trim() || busy}>{t('onboarding.hi')}</button>
    </form>
  )
}

export function NameConfirmation({ name }: { name: string }) {
  const t = useT()
  const [ready, setReady] = useState(false)
  return (
    <div className="step">
      <GuideSays text={t('onboarding.confirmName', { name })} onDone={() => setReady(true)} />
      <div className="row-actions" data-ready={ready}>
        <button className="btn btn-ghost" type="button" onClick={() => go('get-username')}>{t('onboarding.change')}</button>
        <button className="btn" type="button" onClick={() => go('story-telling-interaction-generate-ideal-self-description')}>{t('onboarding.yes')}</button>
      </div>
    </div>
  )
}

export function Describe({ initial, hints }: { initial: string; hints: string[] }) {
  const t = useT()
  const [text, setText] = useState(initial)
  const [hint, setHint] = useState(0)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    // The idealSd of the landing link (spec §2) pre-fills the description once.
    const prefill = sessionStorage.getItem('idealSd')
    if (prefill) setText(prefill)
  }, [])
  useEffect(() => {
    if (hints.length < 2) return
    const timer = setInterval(() => setHint((h) => (h + 1) % hints.length), 3500)
    return () => clearInterval(timer)
  }, [hints.length])
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!text.trim()) return
    setBusy(true)
    try {
      await api('/chatbots/training-data/improved-ideal-self-description', { body: { idealSelfDescription: text.trim() }, silent: true })
      sessionStorage.removeItem('idealSd')
      go('story-telling-interaction-before-conversation-start')
    } catch (err) {
      setBusy(false)
      const status = err instanceof ApiError ? err.status : 0
      const code = err instanceof ApiError ? (err.code ?? String(status)) : 'NetworkError'
      await showAlert(t('onboarding.improveFailed', { status: status || '', code }), err instanceof ApiError ? err.message : String(err))
    }
  }
  return (
    <form onSubmit={submit} className="step">
      <h1>{t('onboarding.describeTitle')}</h1>
      <p className="muted">{t('onboarding.describeText')}</p>
      <label className="field" htmlFor="ob-desc">
        <span className="sr-only">{t('onboarding.describeTitle')}</span>
        <textarea id="ob-desc" rows={5} maxLength={1000} value={text} placeholder={t('onboarding.describePlaceholder')} onChange={(e) => setText(e.target.value)} />
      </label>
      {hints.length > 0 && (
        <button type="button" className="hint" onClick={() => setText(hints[hint])} aria-live="polite">
          <span className="muted">{t('onboarding.hintPrefix')}</span> {hints[hint]}
        </button>
      )}
      <button className="btn btn-block" type="submit" disabled={!text.trim() || busy}>{busy ? t('onboarding.improving') : t('onboarding.describeNext')}</button>
    </form>
  )
}

export function BeforeStory() {
  const t = useT()
  const lines = t('onboarding.beforeStory', { returnObjects: true }) as unknown as string[]
  const [index, setIndex] = useState(0)
  return (
    <div className="step">
      {lines.slice(0, index + 1).map((line, i) => (
        <GuideSays
          key={i}
          text={line}
          onDone={() => {
            if (i !== index) return
            // Each line stays a moment, then the next one starts; after the last, the story begins.
            setTimeout(() => (index + 1 < lines.length ? setIndex(index + 1) : go('story-telling-interaction-conversation-start')), 900)
          }}
        />
      ))}
    </div>
  )
}
