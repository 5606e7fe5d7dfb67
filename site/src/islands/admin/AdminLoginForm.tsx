// Admin sign-in (spec §2 /admin/login, §5, §8): username and password, or Google; the 401 texts by error code.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Dialog } from '../../components/Dialog'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { TextField } from '../../components/admin/TextField'
import { api, ApiError } from '../../lib/api'
import { track } from '../../lib/analytics'
import { devIdToken, exchangeIdToken, renderGoogleButton } from '../../lib/googleSignIn'
import { useT } from '../../lib/reactI18n'
import { afterLogin } from '../../lib/routes'

interface Props {
  googleClientId: string | null
  devSignIn: boolean
  passwordReset: boolean
}

const DASHBOARD = '/admin/app/dashboard'

function signInErrorText(t: (k: string) => string, e: unknown): string {
  if (e instanceof ApiError && e.status === 401) {
    if (e.code === 'IsLinkedToOAuthAccount') return t('admin.login.linkedToOAuth')
    if (e.code === 'AccountSuspended') return t('admin.login.suspended')
    return t('admin.login.invalidCredentials')
  }
  return e instanceof ApiError ? e.message : String((e as Error)?.message ?? e)
}

function Login({ googleClientId, devSignIn, passwordReset }: Props) {
  const t = useT()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState({ username: false, password: false })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [devOpen, setDevOpen] = useState(false)
  const [devEmail, setDevEmail] = useState('')
  const [devName, setDevName] = useState('')
  const googleButton = useRef<HTMLDivElement>(null)

  const usernameError = touched.username && !username.trim() ? t('admin.login.usernameRequired') : null
  const passwordError = touched.password && !password ? t('admin.login.passwordRequired') : null

  async function googleToken(idToken: string) {
    setBusy(true)
    try {
      await exchangeIdToken(idToken)
      track('sign_in_success', { strategy: 'google', area: 'admin' })
      location.assign(afterLogin(location.search, DASHBOARD))
    } catch (e) {
      googleFailed(e)
    }
  }

  function googleFailed(e: unknown) {
    track('sign_in_failure', { strategy: 'google', area: 'admin', message: String((e as Error)?.message ?? e).slice(0, 300) })
    setError(signInErrorText(t, e))
    setBusy(false)
  }

  useEffect(() => {
    if (googleClientId && googleButton.current) renderGoogleButton(googleButton.current, googleClientId, googleToken, googleFailed)
  }, [googleClientId])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTouched({ username: true, password: true })
    if (!username.trim() || !password) return
    setBusy(true)
    setError(null)
    try {
      await api('/auth/login/credential', { body: { username: username.trim(), password, isWeb: true }, purpose: t('admin.login.signIn') })
      track('sign_in_success', { strategy: 'credential', area: 'admin' })
      location.assign(afterLogin(location.search, DASHBOARD))
    } catch (err) {
      track('sign_in_failure', { strategy: 'credential', area: 'admin', code: err instanceof ApiError ? err.code : 'network' })
      // Only the 401 answers are ours to word; the wrapper has already alerted about anything else.
      if (err instanceof ApiError && err.status === 401) setError(signInErrorText(t, err))
      setBusy(false)
    }
  }

  async function devSubmit(e: FormEvent) {
    e.preventDefault()
    setDevOpen(false)
    setBusy(true)
    try {
      await googleToken(await devIdToken(devEmail.trim(), devName.trim()))
    } catch (err) {
      googleFailed(err)
    }
  }

  return (
    <section className="admin-auth" aria-labelledby="login-title">
      <h1 id="login-title">{t('admin.login.title')}</h1>
      <p className="muted">{t('admin.login.intro')}</p>
      {passwordReset && <p className="admin-notice admin-notice-success" role="status">{t('admin.reset.done')}</p>}
      {error && <p className="admin-notice admin-notice-error" role="alert" data-testid="login-error">{error}</p>}
      <form onSubmit={submit} noValidate>
        <TextField
          id="admin-username"
          label={t('admin.login.username')}
          autoComplete="username"
          inputMode="email"
          value={username}
          error={usernameError}
          onChange={(e) => setUsername(e.target.value)}
          onBlur={() => setTouched((s) => ({ ...s, username: true }))}
        />
        <TextField
          id="admin-password"
          type="password"
          label={t('admin.login.password')}
          autoComplete="current-password"
          value={password}
          error={passwordError}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => setTouched((s) => ({ ...s, password: true }))}
        />
        <div className="actions">
          <button type="submit" className="btn btn-block" disabled={busy}>{t('admin.login.signIn')}</button>
        </div>
      </form>
      <div className="links">
        <a href="/admin/forgot-password">{t('admin.login.forgotPassword')}</a>
      </div>
      {(googleClientId || devSignIn) && (
        <>
          <div className="admin-divider">{t('admin.login.or')}</div>
          {googleClientId ? (
            <div ref={googleButton} className="google-button" />
          ) : (
            <button type="button" className="btn btn-ghost btn-block" disabled={busy} onClick={() => setDevOpen(true)}>
              {t('admin.login.signInWithGoogle')}
            </button>
          )}
        </>
      )}
      <Dialog
        open={devOpen}
        onOpenChange={setDevOpen}
        title={t('login.devTitle')}
        description={t('login.devHint')}
      >
        <form onSubmit={devSubmit}>
          <TextField id="dev-email" type="email" label={t('login.email')} required autoComplete="email" value={devEmail} onChange={(e) => setDevEmail(e.target.value)} />
          <TextField id="dev-name" label={t('login.name')} autoComplete="name" maxLength={100} value={devName} onChange={(e) => setDevName(e.target.value)} />
          <div className="dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={() => setDevOpen(false)}>{t('common.cancel')}</button>
            <button type="submit" className="btn" disabled={!devEmail.trim()}>{t('login.signIn')}</button>
          </div>
        </form>
      </Dialog>
    </section>
  )
}

export default function AdminLoginForm(props: Props) {
  return (
    <ErrorBoundary>
      <Login {...props} />
    </ErrorBoundary>
  )
}
