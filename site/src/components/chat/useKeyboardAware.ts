// On a phone the on-screen keyboard takes the lower part of the screen. Browsers that resize the page for it
// (interactive-widget=resizes-content in the viewport meta) shrink 100dvh with it; others only shrink the visual
// viewport. The room takes the visual viewport's height either way, so the composer sits just above the keyboard,
// and a list that was on its last message stays there.
import { useEffect, type RefObject } from 'react'

export function useKeyboardAware(room: RefObject<HTMLElement | null>, scroller: RefObject<HTMLElement | null>, atBottom: RefObject<boolean>) {
  useEffect(() => {
    const viewport = window.visualViewport
    if (!viewport) return
    const fit = () => {
      // Pinch zoom also shrinks the visual viewport; times the scale, only the keyboard does.
      room.current?.style.setProperty('--room-height', `${Math.round(viewport.height * viewport.scale)}px`)
      const list = scroller.current
      if (list && atBottom.current) list.scrollTop = list.scrollHeight
    }
    fit()
    viewport.addEventListener('resize', fit)
    return () => viewport.removeEventListener('resize', fit)
  }, [])
}
