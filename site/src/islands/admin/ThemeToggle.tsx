// The light/dark switch of the admin top bar. Which icon shows is decided by CSS from the class on <html>,
// so the server-rendered button is right before this island hydrates.
import { useEffect, useState } from 'react'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { currentTheme, setTheme, type Theme } from '../../lib/admin/theme'
import { useT } from '../../lib/reactI18n'

export default function ThemeToggle() {
  const t = useT()
  const [theme, setState] = useState<Theme | null>(null)
  useEffect(() => setState(currentTheme()), [])

  function toggle() {
    const next = currentTheme() === 'dark' ? 'light' : 'dark'
    setTheme(next)
    setState(next)
  }

  return (
    <button type="button" className="icon-btn admin-theme-toggle" aria-label={t('admin.theme.dark')} aria-pressed={theme === null ? undefined : theme === 'dark'} onClick={toggle} data-testid="theme-toggle">
      <span className="theme-icon-dark"><AdminIcon name="moon" /></span>
      <span className="theme-icon-light"><AdminIcon name="sun" /></span>
    </button>
  )
}
