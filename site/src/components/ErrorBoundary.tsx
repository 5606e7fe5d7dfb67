import { Component, type ReactNode } from 'react'
import { t } from '../lib/clientI18n'

/** Reports an uncaught render error; the server masks emails before anything leaves it. */
export function reportClientError(error: Error) {
  void fetch('/api/v1/client-errors', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: String(error?.message ?? error).slice(0, 4000), stack: error?.stack?.slice(0, 20000), url: location.href }),
    keepalive: true,
  }).catch(() => {})
}

export function ErrorScreen() {
  return (
    <div role="alert" style={{ textAlign: 'center', padding: '64px 20px' }}>
      <h1>{t('common.somethingWentWrong')}</h1>
      <button type="button" className="btn" onClick={() => location.reload()}>
        {t('common.refreshPage')}
      </button>
    </div>
  )
}

/** The generic error screen of spec §2 around every island. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(error: Error) {
    reportClientError(error)
  }
  render() {
    return this.state.failed ? <ErrorScreen /> : this.props.children
  }
}
