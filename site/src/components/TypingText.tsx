// Text typed out character by character (spec §9: 75 ms default, overridable from the dev tools),
// with a "Tap to reveal" button that shows it all at once.
import { useEffect, useRef, useState } from 'react'
import { t } from '../lib/clientI18n'
import { typingOverride } from '../lib/typingSpeed'

export const DEFAULT_TYPING_MS = 75

export function TypingText(props: { text: string; intervalMs?: number; onDone?: () => void; className?: string; showReveal?: boolean }) {
  const [shown, setShown] = useState(0)
  const done = useRef(false)
  const chars = Array.from(props.text)

  useEffect(() => {
    done.current = false
    setShown(0)
    const ms = typingOverride() ?? props.intervalMs ?? DEFAULT_TYPING_MS
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    if (reduced) {
      setShown(chars.length)
      return
    }
    const timer = setInterval(() => setShown((n) => (n >= chars.length ? n : n + 1)), ms)
    return () => clearInterval(timer)
  }, [props.text])

  useEffect(() => {
    if (shown >= chars.length && !done.current) {
      done.current = true
      props.onDone?.()
    }
  }, [shown, chars.length])

  const complete = shown >= chars.length
  return (
    <div className={props.className}>
      <p aria-live="polite" aria-atomic="false">
        <span className="sr-only">{props.text}</span>
        <span aria-hidden="true">{chars.slice(0, shown).join('')}</span>
      </p>
      {!complete && props.showReveal !== false && (
        <button type="button" className="reveal" onClick={() => setShown(chars.length)}>
          {t('onboarding.tapToReveal')}
        </button>
      )}
    </div>
  )
}
