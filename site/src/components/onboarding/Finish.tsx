// The last onboarding steps: the character being made, entering the space, the Ideal Self's introduction.
import { useEffect, useState } from 'react'
import { GuideAvatar } from '../GuideAvatar'
import { TypingText } from '../TypingText'
import { useT } from '../../lib/reactI18n'
import { api, ApiError } from '../../lib/api'
import { ANALYZING_TICK_MS, analyzingPercent } from '../../lib/onboardingSteps'
import { go } from './shared'

interface Character { id: string; isReady: boolean; characterGenerationJobs?: { status: string; lastError?: string | null }[] }

const PROGRESS_KEY = 'analyzingStartedAt'

export function Analyzing({ userName, description }: { userName: string; description: string }) {
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

export function Enter() {
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

export function Introduction({ name, skipIntro }: { name: string; skipIntro: boolean }) {
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
