// Admin settings profile (spec §2 /admin/app/settings, §5): id read-only, name required, email editable
// only by an ADMIN; Save sends the fields that changed and stays disabled while nothing has.
import { useState, type FormEvent } from 'react'
import { toast } from '../../lib/toast'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { TextField } from '../../components/admin/TextField'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'
import { isEmail } from '../../../../api/http/validation'
import type { User } from '../../../../api/users/users'

interface Props {
  id: string
  name: string
  email: string
  role: string
}

function Profile(props: Props) {
  const t = useT()
  const [saved, setSaved] = useState({ name: props.name, email: props.email })
  const [name, setName] = useState(props.name)
  const [email, setEmail] = useState(props.email)
  const [busy, setBusy] = useState(false)
  const canEditEmail = props.role === 'ADMIN'
  const nextName = name.trim()
  const nextEmail = email.trim().toLowerCase()
  const nameError = nextName ? null : t('admin.settings.isRequired')
  const emailError = canEditEmail && !isEmail(nextEmail) ? t('admin.settings.invalidEmail') : null
  const changes = {
    ...(nextName !== saved.name ? { name: nextName } : {}),
    ...(canEditEmail && nextEmail !== saved.email ? { email: nextEmail } : {}),
  }
  const unchanged = Object.keys(changes).length === 0

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (unchanged || nameError || emailError) return
    setBusy(true)
    try {
      const user = await api<User>('/self/profile', { method: 'PATCH', body: changes, purpose: t('admin.settings.savePurpose') })
      setSaved({ name: user.name, email: user.email })
      setName(user.name)
      setEmail(user.email)
      toast.success(t('admin.settings.saved'))
    } catch {
      // The wrapper has shown why; the form keeps the edits.
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="admin-card admin-form" onSubmit={submit} noValidate>
      <TextField id="profile-id" label={t('admin.settings.id')} value={props.id} readOnly />
      <TextField id="profile-name" label={t('admin.settings.name')} autoComplete="name" maxLength={100} value={name} error={nameError} onChange={(e) => setName(e.target.value)} />
      <TextField
        id="profile-email"
        type="email"
        label={t('admin.settings.email')}
        autoComplete="email"
        value={email}
        readOnly={!canEditEmail}
        error={emailError}
        help={canEditEmail ? undefined : t('admin.settings.emailAdminOnly')}
        onChange={(e) => setEmail(e.target.value)}
      />
      <div className="actions">
        <button type="button" className="btn btn-ghost" disabled={unchanged || busy} onClick={() => { setName(saved.name); setEmail(saved.email) }}>
          {t('admin.settings.reset')}
        </button>
        <button type="submit" className="btn" disabled={unchanged || busy || !!nameError || !!emailError}>{t('common.save')}</button>
      </div>
    </form>
  )
}

export default function AdminProfileForm(props: Props) {
  return (
    <ErrorBoundary>
      <Profile {...props} />
    </ErrorBoundary>
  )
}
