// The avatar menu of the admin top bar: who is signed in, and Logout. The dropdown (components/admin/
// AccountDropdown.tsx) loads when the menu is first opened; until then the avatar is a plain button.
import { lazy, Suspense, useState } from 'react'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { api } from '../../lib/api'
import { useT } from '../../lib/reactI18n'

const loadDropdown = () => import('../../components/admin/AccountDropdown')
const AccountDropdown = lazy(loadDropdown)

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
  const [opened, setOpened] = useState(false)

  async function logout() {
    try {
      await api('/auth/sign-out', { purpose: t('admin.account.logout') })
      location.assign('/admin/login')
    } catch {
      // The wrapper has shown why; the admin stays signed in here.
    }
  }

  const avatar = (
    <>
      <span className="admin-avatar" aria-hidden="true">
        {props.avatarUrl && !imageFailed ? (
          <img src={props.avatarUrl} alt="" width={32} height={32} referrerPolicy="no-referrer" onError={() => setImageFailed(true)} />
        ) : (
          <span dangerouslySetInnerHTML={{ __html: props.identicon }} />
        )}
      </span>
      <AdminIcon name="chevronDown" size={16} />
    </>
  )
  const button = (
    <button
      type="button"
      className="admin-avatar-button"
      aria-label={t('admin.account.menu')}
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="account-menu"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => setOpened(true)}
    >
      {avatar}
    </button>
  )
  if (!opened) return button
  return (
    <Suspense fallback={button}>
      <AccountDropdown name={props.name} email={props.email} role={props.role} avatar={avatar} onLogout={logout} />
    </Suspense>
  )
}

export default function AccountMenu(props: Props) {
  return (
    <ErrorBoundary>
      <Menu {...props} />
    </ErrorBoundary>
  )
}
