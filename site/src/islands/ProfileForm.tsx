// Profile (spec §2, §5): name saved on blur when non-empty and changed, read-only email, account deletion.
import { useState } from 'react'
import { toast } from '../lib/toast'
import { ConfirmDialog } from '../components/Dialog'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { clearDrafts } from '../lib/drafts'
import { api, ApiError } from '../lib/api'

export const DELETE_PHRASE = 'DELETE-MY-ACCOUNT'

interface Props {
  name: string
  email: string
  role: string
  avatarUrl: string | null
  identicon: string
}

function Profile(props: Props) {
  const t = useT()
  const [saved, setSaved] = useState(props.name)
  const [name, setName] = useState(props.name)
  const [nameError, setNameError] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const [phrase, setPhrase] = useState('')
  const [busy, setBusy] = useState(false)
  const [imageFailed, setImageFailed] = useState(false)
  const staff = props.role === 'ADMIN' || props.role === 'DEVELOPER'

  async function saveName() {
    const next = name.trim()
    if (!next) {
      setNameError(t('profile.nameRequired'))
      return
    }
    setNameError(null)
    if (next === saved) return
    try {
      const user = await api<{ name: string }>('/self/profile', { method: 'PATCH', body: { name: next }, silent: true })
      setSaved(user.name)
      setName(user.name)
      toast.success(t('profile.nameUpdated'), { duration: 3000 })
    } catch (e) {
      toast.error(t('profile.nameUpdateFailed', { text: e instanceof ApiError ? e.message : String(e) }))
    }
  }

  async function deleteAccount() {
    setBusy(true)
    try {
      await api('/self', { method: 'DELETE', purpose: t('profile.deleteAccount') })
      clearDrafts()
      location.assign('/login')
    } catch {
      setBusy(false)
    }
  }

  return (
    <div className="profile">
      <div className="avatar" aria-hidden="true">
        {props.avatarUrl && !imageFailed ? (
          <img src={props.avatarUrl} alt="" width={96} height={96} referrerPolicy="no-referrer" onError={() => setImageFailed(true)} />
        ) : (
          <span dangerouslySetInnerHTML={{ __html: props.identicon }} />
        )}
      </div>
      <label className="field" htmlFor="profile-name">
        <span>{t('profile.name')}</span>
        <input
          id="profile-name"
          type="text"
          value={name}
          maxLength={100}
          autoComplete="name"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'profile-name-error' : undefined}
          onChange={(e) => {
            setName(e.target.value)
            if (e.target.value.trim()) setNameError(null)
          }}
          onBlur={saveName}
        />
        {nameError && <div id="profile-name-error" className="field-error" role="alert">{nameError}</div>}
      </label>
      <label className="field" htmlFor="profile-email">
        <span>{t('profile.email')}</span>
        <input id="profile-email" type="email" value={props.email} readOnly aria-describedby="profile-email-help" />
        <div id="profile-email-help" className="field-help">{t('profile.emailReadOnly')}</div>
      </label>
      <button type="button" className="btn btn-danger btn-block" disabled={staff} onClick={() => { setPhrase(''); setOpen(true) }} aria-describedby={staff ? 'delete-staff' : undefined}>
        {t('profile.deleteAccount')}
      </button>
      {staff && <p id="delete-staff" className="field-help">{t('profile.deleteDisabledStaff')}</p>}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('profile.deleteTitle')}
        description={t('profile.deleteText', { phrase: DELETE_PHRASE })}
        confirmText={t('profile.delete')}
        cancelText={t('common.cancel')}
        onConfirm={deleteAccount}
        confirmDisabled={phrase !== DELETE_PHRASE}
        busy={busy}
        danger
      >
        <label className="field" htmlFor="delete-phrase">
          <span>{t('profile.deletePhraseLabel')}</span>
          <input id="delete-phrase" type="text" value={phrase} autoComplete="off" placeholder={DELETE_PHRASE} onChange={(e) => setPhrase(e.target.value)} />
        </label>
      </ConfirmDialog>
    </div>
  )
}

export default function ProfileForm(props: Props) {
  return (
    <ErrorBoundary>
      <Profile {...props} />
    </ErrorBoundary>
  )
}
