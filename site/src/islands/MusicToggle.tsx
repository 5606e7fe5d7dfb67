// Background music of a screen (spec §1): a toggle shown only when the screen has a track.
import { useEffect, useRef, useState } from 'react'
import { Icon } from '../components/Icon'
import { useT } from '../lib/reactI18n'
import { ErrorBoundary } from '../components/ErrorBoundary'

const KEY = 'musicOn'

function Music({ src, volume }: { src: string; volume: number }) {
  const t = useT()
  const audio = useRef<HTMLAudioElement>(null)
  // The server renders "on"; the device's choice is read after hydration, so both renders agree.
  const [on, setOn] = useState(true)
  useEffect(() => setOn(localStorage.getItem(KEY) !== 'false'), [])

  useEffect(() => {
    const el = audio.current
    if (!el) return
    el.volume = Math.min(1, Math.max(0, volume / 100))
    if (!on) {
      el.pause()
      return
    }
    // Browsers allow sound only after a gesture: try now, else on the first tap or key.
    const start = () => void el.play().catch(() => {})
    start()
    window.addEventListener('pointerdown', start, { once: true })
    window.addEventListener('keydown', start, { once: true })
    return () => {
      window.removeEventListener('pointerdown', start)
      window.removeEventListener('keydown', start)
    }
  }, [on])

  const toggle = () => {
    localStorage.setItem(KEY, String(!on))
    setOn(!on)
  }
  return (
    <>
      <audio ref={audio} src={src} loop preload="none" />
      <button type="button" className="icon-btn" aria-pressed={on} aria-label={on ? t('music.off') : t('music.on')} onClick={toggle}>
        <Icon name={on ? 'music' : 'musicOff'} />
      </button>
    </>
  )
}

export default function MusicToggle(props: { src: string; volume: number }) {
  return (
    <ErrorBoundary>
      <Music {...props} />
    </ErrorBoundary>
  )
}
