// The admin console's light/dark choice, remembered in localStorage. AdminLayout applies it with an inline
// script before the first paint; the toggle changes it afterwards.
export const THEME_KEY = 'admin-theme'
export const LIGHT_CLASS = 'admin-light'
export type Theme = 'light' | 'dark'

export const currentTheme = (): Theme => (document.documentElement.classList.contains(LIGHT_CLASS) ? 'light' : 'dark')

export function setTheme(theme: Theme) {
  document.documentElement.classList.toggle(LIGHT_CLASS, theme === 'light')
  try {
    localStorage.setItem(THEME_KEY, theme)
  } catch {
    // Private mode may refuse storage; the choice then lasts for this page only.
  }
}
