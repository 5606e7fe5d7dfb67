import { useState } from 'react'
import { ConfirmDialog } from '../components/Dialog'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { api } from '../lib/api'
import { track } from '../lib/analytics'
import { clearDrafts } from '../lib/drafts'

function Logout() {
  const t = useT()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  async function logout() {
    setBusy(true)
    try {
      await api('/auth/sign-out', { purpose: t('settings.logout') })
      track('logout')
      clearDrafts()
      location.assign('/login')
    } catch {
      // Spec §4 "Account actions": a failure leaves the user here with the button enabled again.
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" className="btn btn-ghost btn-block logout" onClick={() => setOpen(true)}>
        {t('settings.logout')}
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('settings.logoutConfirmTitle')}
        description={t('settings.logoutConfirmText')}
        confirmText={t('settings.logout')}
        cancelText={t('common.cancel')}
        onConfirm={logout}
        busy={busy}
      />
    </>
  )
}

export default function LogoutButton() {
  return (
    <ErrorBoundary>
      <Logout />
    </ErrorBoundary>
  )
}
