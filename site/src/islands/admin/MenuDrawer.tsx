// The side menu as a drawer on narrow screens (spec §2): a Radix dialog, so focus stays inside and Escape closes.
import { useEffect, useState } from 'react'
import * as RD from '@radix-ui/react-dialog'
import { AdminNav, type AdminNavProps } from '../../components/admin/AdminNav'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { useT } from '../../lib/reactI18n'

// Matches the width in admin.css where the fixed sidebar takes over from the drawer.
const WIDE = '(min-width: 900px)'

function Drawer(props: AdminNavProps) {
  const t = useT()
  const [open, setOpen] = useState(false)

  useEffect(() => {
    // A drawer left open while the window widens would cover the sidebar that now shows anyway.
    const wide = matchMedia(WIDE)
    const onChange = () => wide.matches && setOpen(false)
    wide.addEventListener('change', onChange)
    return () => wide.removeEventListener('change', onChange)
  }, [])

  return (
    <RD.Root open={open} onOpenChange={setOpen}>
      <RD.Trigger className="icon-btn admin-menu-button" aria-label={t('admin.nav.openMenu')}>
        <AdminIcon name="menu" size={22} />
      </RD.Trigger>
      <RD.Portal>
        <RD.Overlay className="dialog-overlay admin-drawer-overlay" />
        <RD.Content className="admin-drawer" aria-describedby={undefined}>
          <div className="admin-drawer-head">
            <RD.Title className="admin-drawer-title">{t('admin.title')}</RD.Title>
            <RD.Close className="icon-btn" aria-label={t('admin.nav.closeMenu')}>
              <AdminIcon name="close" size={22} />
            </RD.Close>
          </div>
          <AdminNav {...props} />
        </RD.Content>
      </RD.Portal>
    </RD.Root>
  )
}

export default function MenuDrawer(props: AdminNavProps) {
  return (
    <ErrorBoundary>
      <Drawer {...props} />
    </ErrorBoundary>
  )
}
