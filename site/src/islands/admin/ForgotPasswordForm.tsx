// Forgot password (spec §2, §5, §8): a valid email, then the same answer whether or not it is registered.
import { useState, type FormEvent } from 'react'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { TextField } from '../../components/admin/TextField'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'
import { isEmail } from '../../../../api/http/validation'

function Forgot() {
  const t = useT()
  const [email, setEmail] = useState('')
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(false)
  const valid = isEmail(email.trim().toLowerCase())
  const error = touched && !valid ? t('admin.forgot.invalidEmail') : null

  async function submit(e: FormEvent) {
    e.preventDefault()
    setTouched(true)
    if (!valid) return
    setBusy(true)
    try {
      // The mailed link comes back to this console's reset page.
      await api('/auth/forgot-password', { body: { email: email.trim(), redirectUrl: '/admin/reset-password' }, purpose: t('admin.forgot.title') })
      setSent(true)
    } catch {
      // The wrapper has shown why.
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="admin-auth" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t('admin.forgot.title')}</h1>
      {sent ? (
        <p className="admin-notice admin-notice-success" role="status">{t('admin.forgot.requested')}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p className="muted">{t('admin.forgot.intro')}</p>
          <TextField
            id="forgot-email"
            type="email"
            label={t('admin.forgot.email')}
            autoComplete="email"
            value={email}
            error={error}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          <div className="actions">
            <button type="submit" className="btn btn-block" disabled={busy}>{t('admin.forgot.submit')}</button>
          </div>
        </form>
      )}
      <div className="links">
        <a href="/admin/login">{t('admin.forgot.backToLogin')}</a>
      </div>
    </section>
  )
}

export default function ForgotPasswordForm() {
  return (
    <ErrorBoundary>
      <Forgot />
    </ErrorBoundary>
  )
}
