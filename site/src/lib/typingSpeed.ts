// The typing-speed override of the dev tools (spec §9: default 100, range 20–200), kept on this device.
const KEY = 'typingSpeedOverride'
export const TYPING_OVERRIDE_DEFAULT = 100

export function typingOverride(): number | null {
  if (typeof localStorage === 'undefined') return null
  const v = Number(localStorage.getItem(KEY))
  return Number.isFinite(v) && v >= 20 && v <= 200 ? v : null
}

export function setTypingOverride(ms: number | null) {
  if (ms === null) localStorage.removeItem(KEY)
  else localStorage.setItem(KEY, String(Math.min(200, Math.max(20, Math.round(ms)))))
}
