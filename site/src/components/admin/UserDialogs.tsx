// The dialogs of admin user management (spec §5): edit email, set password, delete with the DELETE phrase.
import { useState, type FormEvent } from 'react'
import { ConfirmDialog } from '../Dialog'
import { TextField } from './TextField'
import { PasswordRules } from './PasswordRules'
import { InlineAlert } from './InlineAlert'
import { isStrongPassword } from '../../lib/admin/passwordRules'
import { failureOf, type Failure } from '../../lib/admin/failure'
import { useT } from '../../lib/reactI18n'
import { isEmail } from '../../../../api/http/validation'
import type { User } from '../../../../api/users/users'

export const DELETE_USER_PHRASE = 'DELETE'

interface DialogProps {
  user: User
  onClose: () => void
  /** Sends the change to PATCH /users/{id}; rejects with the API's error. */
  onSave: (change: Record<string, string>) => Promise<void>
}

/** Runs a dialog's request; a failure stays in the dialog, worded like the shared alerts. */
function useRequest(purpose: string, method: string, path: string) {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  async function run(request: () => Promise<void>): Promise<boolean> {
    setBusy(true)
    setFailure(null)
    try {
      await request()
      return true
    } catch (e) {
      setFailure(failureOf(purpose, e, method, path))
      setBusy(false)
      return false
    }
  }
  return { busy, failure, setFailure, run }
}

export function EmailDialog({ user, onClose, onSave }: DialogProps) {
  const t = useT()
  const [email, setEmail] = useState(user.email)
  const [error, setError] = useState<string | null>(null)
  const { busy, failure, setFailure, run } = useRequest(t('admin.users.updateEmail'), 'PATCH', `/users/${user.id}`)

  async function save(e?: FormEvent) {
    e?.preventDefault()
    const next = email.trim().toLowerCase()
    // An unchanged address is not sent (spec §5).
    if (next === user.email) return onClose()
    if (!isEmail(next)) {
      setError(t('admin.users.invalidEmail'))
      setFailure({ title: t('admin.users.updateEmailFailed'), message: t('admin.users.invalidEmail') })
      return
    }
    if (await run(() => onSave({ email: next }))) onClose()
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.users.editEmailTitle')}
      description={t('admin.users.editEmailText', { name: user.name || user.email })}
      confirmText={t('common.save')}
      cancelText={t('common.cancel')}
      onConfirm={() => void save()}
      busy={busy}
    >
      <InlineAlert failure={failure} />
      <form onSubmit={save} noValidate>
        <TextField
          id="user-email"
          type="email"
          label={t('admin.users.email')}
          autoComplete="off"
          value={email}
          error={error}
          onChange={(e) => {
            setEmail(e.target.value)
            setError(e.target.value.trim() && !isEmail(e.target.value.trim().toLowerCase()) ? t('admin.users.invalidEmail') : null)
          }}
        />
      </form>
    </ConfirmDialog>
  )
}

export function PasswordDialog({ user, onClose, onSave }: DialogProps) {
  const t = useT()
  const [password, setPassword] = useState('')
  const { busy, failure, run } = useRequest(t('admin.users.setPassword'), 'PATCH', `/users/${user.id}`)
  const strong = isStrongPassword(password)

  async function save(e?: FormEvent) {
    e?.preventDefault()
    if (!strong) return
    if (await run(() => onSave({ password }))) onClose()
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.users.setPasswordTitle')}
      description={t('admin.users.setPasswordText', { name: user.name || user.email })}
      confirmText={t('admin.users.setPassword')}
      cancelText={t('common.cancel')}
      onConfirm={() => void save()}
      confirmDisabled={!strong}
      busy={busy}
    >
      <InlineAlert failure={failure} />
      <form onSubmit={save} noValidate>
        <input type="email" value={user.email} autoComplete="username" readOnly hidden />
        <TextField
          id="user-password"
          type="password"
          label={t('admin.users.newPassword')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="user-password-rules"
        />
        <PasswordRules id="user-password-rules" password={password} />
      </form>
    </ConfirmDialog>
  )
}

export function DeleteDialog({ user, onClose, onDelete }: { user: User; onClose: () => void; onDelete: () => Promise<void> }) {
  const t = useT()
  const [phrase, setPhrase] = useState('')
  const { busy, failure, run } = useRequest(t('admin.users.deletePurpose'), 'DELETE', `/users/${user.id}`)

  async function confirm() {
    if (phrase !== DELETE_USER_PHRASE) return
    if (await run(onDelete)) onClose()
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.users.deleteTitle')}
      description={t('admin.users.deleteText', { name: user.name || user.email, email: user.email, phrase: DELETE_USER_PHRASE })}
      confirmText={t('admin.users.delete')}
      cancelText={t('common.cancel')}
      onConfirm={() => void confirm()}
      confirmDisabled={phrase !== DELETE_USER_PHRASE}
      busy={busy}
      danger
    >
      <InlineAlert failure={failure} />
      <form onSubmit={(e) => { e.preventDefault(); void confirm() }}>
        <TextField id="delete-user-phrase" label={t('admin.users.deletePhraseLabel', { phrase: DELETE_USER_PHRASE })} autoComplete="off" value={phrase} onChange={(e) => setPhrase(e.target.value)} />
      </form>
    </ConfirmDialog>
  )
}
