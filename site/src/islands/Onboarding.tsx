// The 8-step onboarding of spec §2/§4: each step is its own page view; this island runs the current one.
import { useEffect, useRef, useState } from 'react'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { GuideAvatar } from '../components/GuideAvatar'
import { TypingText } from '../components/TypingText'
import { browserTimeZone } from '../lib/timeZone'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { showAlert } from '../lib/alertDialog'
import { ANALYZING_TICK_MS, PROGRESS_STEPS, STEPS, analyzingPercent, stepUrl, type Step } from '../lib/onboardingSteps'

interface Props {
  step: Step
  userName: string
  description: string
  hints: string[]
  storyLanguage: string
  finishedWatchingIntro: boolean
}
interface StoryEntry { role: 'GUIDE' | 'USER'; content: string; help?: boolean }
interface StoryState { entries: StoryEntry[]; newEntries?: StoryEntry[]; isProcessCompleted: boolean }
interface Character { id: string; isReady: boolean; characterGenerationJobs?: { status: string; lastError?: string | null }[] }

const go = (step: Step, extra = '') => location.assign(stepUrl(step, extra))

function Progress({ step }: { step: Step }) {
  const t = useT()
  const index = STEPS.indexOf(step)
  if (index >= PROGRESS_STEPS) return null
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={PROGRESS_STEPS} aria-valuenow={index} aria-label={t('onboarding.progress', { n: index + 1, total: PROGRESS_STEPS })}>
      <div className="progress-fill" style={{ width: `${(index / PROGRESS_STEPS) * 100}%` }} />
    </div>
  )
}

function GuideSays({ text, onDone }: { text: string; onDone?: () => void }) {
  const t = useT()
  return (
    <div className="guide-line">
      <GuideAvatar size={48} label={t('onboarding.guide')} />
      <TypingText className="guide-text" text={text} onDone={onDone} />
    </div>
  )
}

function GetUsername({ initial }: { initial: string }) {
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

function NameConfirmation({ name }: { name: string }) {
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

function Describe({ initial, hints }: { initial: string; hints: string[] }) {
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

function BeforeStory() {
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

function Story({ language }: { language: string }) {
  const t = useT()
  const [entries, setEntries] = useState<StoryEntry[]>([])
  const [answer, setAnswer] = useState('')
  const [busy, setBusy] = useState(true)
  const [typed, setTyped] = useState(0)
  const end = useRef<HTMLDivElement>(null)

  useEffect(() => {
    ;(async () => {
      try {
        let state = await api<StoryState>('/chatbots/training-data/story-telling', { purpose: t('onboarding.storyTitle') })
        if (state.isProcessCompleted) return go('story-telling-interaction-analyzing')
        if (state.entries.length === 0) {
          state = await api<StoryState>('/chatbots/training-data/story-telling', {
            body: { text: '', userPreferredLanguage: language, receiveHelloMessage: true },
            purpose: t('onboarding.storyTitle'),
          })
        }
        setTyped(state.entries.length - 1)
        setEntries(state.entries)
      } finally {
        setBusy(false)
      }
    })()
  }, [])
  useEffect(() => {
    // Scroll methods now return a promise, which must not become the effect's cleanup.
    void end.current?.scrollIntoView({ behavior: 'smooth', block: 'end' })
  }, [entries.length, busy])

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    const text = answer.trim()
    if (!text || busy) return
    setBusy(true)
    setEntries((list) => [...list, { role: 'USER', content: text }])
    setAnswer('')
    try {
      const state = await api<StoryState>('/chatbots/training-data/story-telling', {
        body: { text, userPreferredLanguage: language, timeZone: browserTimeZone() },
        purpose: t('onboarding.storyTitle'),
      })
      setTyped(state.entries.length - 1)
      setEntries(state.entries)
      if (state.isProcessCompleted) setTimeout(() => go('story-telling-interaction-analyzing'), 2500)
    } catch {
      setEntries((list) => list.slice(0, -1))
      setAnswer(text)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="step story">
      <ol className="story-log" aria-label={t('onboarding.storyTitle')}>
        {entries.map((entry, i) =>
          entry.role === 'GUIDE' ? (
            <li key={i} className="guide-line">
              <GuideAvatar size={40} label={t('onboarding.guide')} />
              {entry.help ? (
                // Help is shown at once, never typed out.
                <p className="guide-text help-card story-help" role="note" aria-label={t('help.cardLabel')}>{entry.content}</p>
              ) : i === typed ? (
                <TypingText className="guide-text" text={entry.content} />
              ) : (
                <p className="guide-text">{entry.content}</p>
              )}
            </li>
          ) : (
            <li key={i} className="user-line"><p>{entry.content}</p></li>
          ),
        )}
        {busy && <li className="guide-line thinking" aria-live="polite"><GuideAvatar size={40} /><p className="muted">{t('onboarding.thinking')}</p></li>}
      </ol>
      <div ref={end} />
      <form onSubmit={submit} className="answer">
        <label className="field" htmlFor="ob-answer">
          <span className="sr-only">{t('onboarding.answerLabel')}</span>
          <textarea id="ob-answer" rows={4} maxLength={2000} value={answer} placeholder={t('onboarding.answerPlaceholder')} onChange={(e) => setAnswer(e.target.value)} />
        </label>
        <button className="btn btn-block" type="submit" disabled={!answer.trim() || busy}>{t('onboarding.submit')}</button>
      </form>
    </div>
  )
}

const PROGRESS_KEY = 'analyzingStartedAt'

function Analyzing({ userName, description }: { userName: string; description: string }) {
  const t = useT()
  const [percent, setPercent] = useState(0)
  const [failure, setFailure] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    // The simulated counter survives reloads of this tab (spec §4 "Analyzing").
    const started = Number(sessionStorage.getItem(PROGRESS_KEY)) || Date.now()
    sessionStorage.setItem(PROGRESS_KEY, String(started))
    const tick = setInterval(() => setPercent(analyzingPercent(Date.now() - started)), ANALYZING_TICK_MS)
    return () => clearInterval(tick)
  }, [])

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout>
    const finish = () => {
      sessionStorage.removeItem(PROGRESS_KEY)
      go('meet-your-ideal-self-enter')
    }
    async function poll(id: string) {
      if (stopped) return
      try {
        const c = await api<Character>(`/chatbots/characters/${id}`, { silent: true })
        if (c.isReady) return finish()
        const job = c.characterGenerationJobs?.at(-1)
        if (job?.status === 'FAILED') return setFailure(job.lastError ?? 'FAILED')
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return setFailure(e.message)
      }
      timer = setTimeout(() => poll(id), 3000)
    }
    ;(async () => {
      try {
        const list = await api<Character[]>('/chatbots/characters', { purpose: t('onboarding.analyzingTitle') })
        const existing = list.at(-1)
        if (existing?.isReady) return finish()
        const id = existing
          ? existing.id
          : (await api<{ characterId: string }>('/chatbots/characters', {
              body: { userName, idealSelfDescription: description },
              query: { skipChatHistoryUpload: true },
              purpose: t('onboarding.analyzingTitle'),
            })).characterId
        poll(id)
      } catch (e) {
        setFailure(e instanceof ApiError ? e.message : String(e))
      }
    })()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [attempt])

  async function retry() {
    setFailure(null)
    const list = await api<Character[]>('/chatbots/characters', { silent: true }).catch(() => [])
    const last = list.at(-1)
    if (last) await api(`/chatbots/characters/${last.id}/retry-build`, { method: 'POST', purpose: t('onboarding.retry') }).catch(() => {})
    setAttempt((n) => n + 1)
  }

  return (
    <div className="step analyzing">
      <GuideAvatar size={120} label={t('onboarding.guide')} />
      <h1>{t('onboarding.analyzingTitle')}</h1>
      <p className="muted">{t('onboarding.analyzingText')}</p>
      <div className="percent" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.floor(percent)} aria-label={t('onboarding.analyzingTitle')}>
        {percent.toFixed(percent >= 99 ? 6 : 0)}%
      </div>
      {failure && (
        <div role="alert" className="failure">
          <p>{t('onboarding.analyzingFailed', { error: failure })}</p>
          <button className="btn" type="button" onClick={retry}>{t('onboarding.retry')}</button>
        </div>
      )}
    </div>
  )
}

function Enter() {
  const t = useT()
  return (
    <div className="step reveal-step">
      <GuideAvatar size={160} label={t('select.idealSelf')} />
      <h1>{t('onboarding.enterTitle')}</h1>
      <p className="muted">{t('onboarding.enterText')}</p>
      <button className="btn btn-block" type="button" onClick={() => go('meet-your-ideal-self-introduction')}>{t('onboarding.meet')}</button>
    </div>
  )
}

function Introduction({ name, skipIntro }: { name: string; skipIntro: boolean }) {
  const t = useT()
  const lines = (t('onboarding.intro', { returnObjects: true, name }) as unknown as string[])
  const [index, setIndex] = useState(skipIntro ? lines.length : 0)
  const [characterId, setCharacterId] = useState<string | null>(null)
  useEffect(() => {
    api<Character[]>('/chatbots/characters', { purpose: t('onboarding.uploadChatHistory') })
      .then((list) => setCharacterId(list.at(-1)?.id ?? null))
      .catch(() => {})
  }, [])
  const finished = index >= lines.length
  function markWatched() {
    const url = new URL(location.href)
    url.searchParams.set('finishedWatchingIntro', 'true')
    history.replaceState(null, '', url)
  }
  return (
    <div className="step intro">
      <GuideAvatar size={96} label={t('select.idealSelf')} />
      {lines.slice(0, Math.min(index + 1, lines.length)).map((line, i) =>
        skipIntro || i < index ? (
          <p key={i} className="intro-line">{line}</p>
        ) : (
          <TypingText key={i} className="intro-line" text={line} onDone={() => setTimeout(() => { setIndex(i + 1); if (i + 1 >= lines.length) markWatched() }, 600)} />
        ),
      )}
      {finished && (
        <div className="intro-actions">
          <a className="btn btn-block" href={characterId ? `/app/characters/${characterId}/upload-chat-history` : '#'} aria-disabled={!characterId}>{t('onboarding.uploadChatHistory')}</a>
          <a className="btn btn-ghost btn-block" href="/app/select-character">{t('onboarding.skip')}</a>
        </div>
      )}
    </div>
  )
}

function Steps(props: Props) {
  const body = (() => {
    switch (props.step) {
      case 'get-username': return <GetUsername initial={props.userName} />
      case 'name-confirmation': return <NameConfirmation name={props.userName} />
      case 'story-telling-interaction-generate-ideal-self-description': return <Describe initial={props.description} hints={props.hints} />
      case 'story-telling-interaction-before-conversation-start': return <BeforeStory />
      case 'story-telling-interaction-conversation-start': return <Story language={props.storyLanguage} />
      case 'story-telling-interaction-analyzing': return <Analyzing userName={props.userName} description={props.description} />
      case 'meet-your-ideal-self-enter': return <Enter />
      case 'meet-your-ideal-self-introduction': return <Introduction name={props.userName} skipIntro={props.finishedWatchingIntro} />
    }
  })()
  return (
    <>
      <Progress step={props.step} />
      {body}
    </>
  )
}

export default function Onboarding(props: Props) {
  return (
    <ErrorBoundary>
      <Steps {...props} />
    </ErrorBoundary>
  )
}

