// The admin side menu's drawer panel (Radix dialog: focus stays inside, Escape closes, focus returns to the menu
// button). Loaded by islands/admin/MenuDrawer.tsx the first time the drawer opens.
import * as RD from '@radix-ui/react-dialog'
import type { RefObject } from 'react'
import { AdminNav, type AdminNavProps } from './AdminNav'
import { AdminIcon } from './AdminIcon'
import { t } from '../../lib/clientI18n'

export default function DrawerPanel({ open, onOpenChange, nav, opener }: { open: boolean; onOpenChange: (open: boolean) => void; nav: AdminNavProps; opener: RefObject<HTMLButtonElement | null> }) {
  return (
    <RD.Root open={open} onOpenChange={onOpenChange}>
      <RD.Portal>
        <RD.Overlay className="dialog-overlay admin-drawer-overlay" />
        <RD.Content
          id="admin-drawer"
          className="admin-drawer"
          aria-describedby={undefined}
          // The menu button is not a Radix trigger (it loads this panel), so focus is taken back to it here.
          onCloseAutoFocus={(e) => {
            e.preventDefault()
            opener.current?.focus()
          }}
        >
          <div className="admin-drawer-head">
            <RD.Title className="admin-drawer-title">{t('admin.title')}</RD.Title>
            <RD.Close className="icon-btn" aria-label={t('admin.nav.closeMenu')}>
              <AdminIcon name="close" size={22} />
            </RD.Close>
          </div>
          <AdminNav {...nav} />
        </RD.Content>
      </RD.Portal>
    </RD.Root>
  )
}
