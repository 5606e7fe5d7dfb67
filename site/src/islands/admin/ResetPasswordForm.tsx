// Reset password (spec §2, §5): the page has already checked the token; Submit waits for a strong,
// confirmed password, and success goes back to the login with a confirmation.
import { useState, type FormEvent } from 'react'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { TextField } from '../../components/admin/TextField'
import { PasswordRules } from '../../components/admin/PasswordRules'
import { isStrongPassword } from '../../lib/admin/passwordRules'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'

function Reset({ token, email }: { token: string; email: string }) {
  const t = useT()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [busy, setBusy] = useState(false)
  const strong = isStrongPassword(password)
  const matches = confirm === password
  const mismatch = confirm !== '' && !matches ? t('admin.reset.notMatched') : null

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!strong || !matches) return
    setBusy(true)
    try {
      await api('/auth/reset-password', { body: { password, token }, purpose: t('admin.reset.title') })
      location.assign('/admin/login?reset=done')
    } catch {
      setBusy(false)
    }
  }

  return (
    <section className="admin-auth" aria-labelledby="reset-title">
      <h1 id="reset-title">{t('admin.reset.title')}</h1>
      <p className="muted">{t('admin.reset.intro', { email })}</p>
      <form onSubmit={submit} noValidate>
        {/* Lets password managers store the new password under the right account. */}
        <input type="email" value={email} autoComplete="username" readOnly hidden />
        <TextField
          id="reset-password"
          type="password"
          label={t('admin.reset.newPassword')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="reset-rules"
        />
        <PasswordRules id="reset-rules" password={password} />
        <TextField
          id="reset-confirm"
          type="password"
          label={t('admin.reset.confirmPassword')}
          autoComplete="new-password"
          value={confirm}
          error={mismatch}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <div className="actions">
          <button type="submit" className="btn btn-block" disabled={busy || !strong || !matches}>{t('admin.reset.submit')}</button>
        </div>
      </form>
      <div className="links">
        <a href="/admin/login">{t('admin.forgot.backToLogin')}</a>
      </div>
    </section>
  )
}

export default function ResetPasswordForm(props: { token: string; email: string }) {
  return (
    <ErrorBoundary>
      <Reset {...props} />
    </ErrorBoundary>
  )
}
