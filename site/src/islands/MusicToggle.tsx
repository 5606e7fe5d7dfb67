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
  // Nothing plays (or downloads) before the device's choice is known.
  const [known, setKnown] = useState(false)
  useEffect(() => {
    setOn(localStorage.getItem(KEY) !== 'false')
    setKnown(true)
  }, [])

  useEffect(() => {
    const el = audio.current
    if (!el || !known) return
    el.volume = Math.min(1, Math.max(0, volume / 100))
    if (!on) {
      el.pause()
      return
    }
    // The track is fetched only once music is on and may play (browsers allow sound after a gesture): at once
    // when the page may already play sound, else on the first tap or key.
    const start = () => {
      if (!el.getAttribute('src')) el.src = src
      void el.play().catch(() => {})
    }
    // Turned on by a tap just now: that tap allows sound at once.
    if (navigator.userActivation?.isActive) start()
    window.addEventListener('pointerdown', start, { once: true })
    window.addEventListener('keydown', start, { once: true })
    return () => {
      window.removeEventListener('pointerdown', start)
      window.removeEventListener('keydown', start)
    }
  }, [on, known])

  const toggle = () => {
    localStorage.setItem(KEY, String(!on))
    setOn(!on)
  }
  return (
    <>
      <audio ref={audio} loop preload="none" />
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
