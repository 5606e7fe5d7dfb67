// The side menu as a drawer on narrow screens (spec §2): a Radix dialog (components/admin/DrawerPanel.tsx), so
// focus stays inside and Escape closes. The dialog library loads when the drawer first opens.
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import type { AdminNavProps } from '../../components/admin/AdminNav'
import { AdminIcon } from '../../components/admin/AdminIcon'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { useT } from '../../lib/reactI18n'

const DrawerPanel = lazy(() => import('../../components/admin/DrawerPanel'))

// Matches the width in admin.css where the fixed sidebar takes over from the drawer.
const WIDE = '(min-width: 900px)'

function Drawer(props: AdminNavProps) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const [used, setUsed] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    // A drawer left open while the window widens would cover the sidebar that now shows anyway.
    const wide = matchMedia(WIDE)
    const onChange = () => wide.matches && setOpen(false)
    wide.addEventListener('change', onChange)
    return () => wide.removeEventListener('change', onChange)
  }, [])

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="icon-btn admin-menu-button"
        aria-label={t('admin.nav.openMenu')}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'admin-drawer' : undefined}
        onClick={() => {
          setUsed(true)
          setOpen(true)
        }}
      >
        <AdminIcon name="menu" size={22} />
      </button>
      {used && (
        <Suspense fallback={null}>
          <DrawerPanel open={open} onOpenChange={setOpen} nav={props} opener={opener} />
        </Suspense>
      )}
    </>
  )
}

export default function MenuDrawer(props: AdminNavProps) {
  return (
    <ErrorBoundary>
      <Drawer {...props} />
    </ErrorBoundary>
  )
}
