// Location sharing (spec §6 dev tool): off by default; when on, high accuracy, a 5 s timeout, refreshed every
// 5 minutes and saved to the profile; the latest position goes with each message.
import { useEffect, useRef, useState } from 'react'
import { api } from '../../lib/api'

const GEO_REFRESH_MS = 5 * 60 * 1000

export function useLocationSharing() {
  const [sharing, setSharing] = useState(false)
  useEffect(() => setSharing(localStorage.getItem('shareLocation') === 'true'), [])
  const position = useRef<{ latitude: number; longitude: number } | null>(null)

  useEffect(() => {
    localStorage.setItem('shareLocation', String(sharing))
    if (!sharing || !navigator.geolocation) return
    const read = () =>
      navigator.geolocation.getCurrentPosition(
        ({ coords }) => {
          position.current = { latitude: coords.latitude, longitude: coords.longitude }
          void api('/self/geo-location', { method: 'PUT', body: position.current, silent: true }).catch(() => {})
        },
        () => {},
        { enableHighAccuracy: true, timeout: 5000 },
      )
    read()
    const timer = setInterval(read, GEO_REFRESH_MS)
    return () => clearInterval(timer)
  }, [sharing])

  return { sharing, setSharing, position: () => (sharing ? position.current : null) }
}
