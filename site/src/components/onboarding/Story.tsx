// The onboarding story: the guide asks, the person answers, until the story is complete.
import { useEffect, useRef, useState } from 'react'
import { GuideAvatar } from '../GuideAvatar'
import { TypingText } from '../TypingText'
import { browserTimeZone } from '../../lib/timeZone'
import { useT } from '../../lib/reactI18n'
import { api } from '../../lib/api'
import { go, type StoryEntry } from './shared'

interface StoryState { entries: StoryEntry[]; newEntries?: StoryEntry[]; isProcessCompleted: boolean }

export function Story({ language }: { language: string }) {
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
