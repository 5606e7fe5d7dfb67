import { useEffect, useState } from 'react'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { OFFER_CHANGED, install, installOffer } from '../lib/installApp'

// The settings row "Install app": there only while the browser offers to install (beforeinstallprompt), which it
// does not once the app is installed or when it is opened as the installed app.
function Install() {
  const t = useT()
  const [offered, setOffered] = useState(false)
  useEffect(() => {
    const update = () => setOffered(installOffer() !== null)
    update()
    window.addEventListener(OFFER_CHANGED, update)
    return () => window.removeEventListener(OFFER_CHANGED, update)
  }, [])
  if (!offered) return null
  return (
    <section aria-labelledby="install-app">
      <h2 id="install-app">{t('settings.app')}</h2>
      <ul className="menu card">
        <li>
          <button type="button" onClick={() => void install()} data-testid="install-app">
            <span>
              {t('settings.installApp')}
              <span className="field-help" style={{ display: 'block', marginTop: 2 }}>{t('settings.installAppHint')}</span>
            </span>
          </button>
        </li>
      </ul>
    </section>
  )
}

export default function InstallApp() {
  return (
    <ErrorBoundary>
      <Install />
    </ErrorBoundary>
  )
}
