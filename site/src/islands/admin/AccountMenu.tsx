// The avatar menu of the admin top bar: who is signed in, and Logout.
import { useState } from 'react'
import * as DM from '@radix-ui/react-dropdown-menu'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'

interface Props {
  name: string
  email: string
  role: string
  avatarUrl: string | null
  identicon: string
}

function Menu(props: Props) {
  const t = useT()
  const [imageFailed, setImageFailed] = useState(false)

  async function logout() {
    try {
      await api('/auth/sign-out', { purpose: t('admin.account.logout') })
      location.assign('/admin/login')
    } catch {
      // The wrapper has shown why; the admin stays signed in here.
    }
  }

  return (
    <DM.Root>
      <DM.Trigger className="admin-avatar-button" aria-label={t('admin.account.menu')} data-testid="account-menu">
        <span className="admin-avatar" aria-hidden="true">
          {props.avatarUrl && !imageFailed ? (
            <img src={props.avatarUrl} alt="" width={32} height={32} referrerPolicy="no-referrer" onError={() => setImageFailed(true)} />
          ) : (
            <span dangerouslySetInnerHTML={{ __html: props.identicon }} />
          )}
        </span>
        <AdminIcon name="chevronDown" size={16} />
      </DM.Trigger>
      <DM.Portal>
        <DM.Content className="admin-dropdown" align="end" sideOffset={8}>
          <DM.Label className="admin-dropdown-label">
            <strong>{props.name || props.email}</strong>
            <span>{props.email}</span>
            <span className="admin-chip">{props.role}</span>
          </DM.Label>
          <DM.Separator className="admin-dropdown-separator" />
          <DM.Item className="admin-dropdown-item" onSelect={logout}>
            <AdminIcon name="logout" size={18} />
            {t('admin.account.logout')}
          </DM.Item>
        </DM.Content>
      </DM.Portal>
    </DM.Root>
  )
}

export default function AccountMenu(props: Props) {
  return (
    <ErrorBoundary>
      <Menu {...props} />
    </ErrorBoundary>
  )
}
