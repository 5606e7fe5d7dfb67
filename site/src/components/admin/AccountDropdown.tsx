// The admin avatar menu's dropdown (Radix: arrow keys, Escape, focus back on the avatar). Loaded by
// islands/admin/AccountMenu.tsx the first time the menu opens, and opened then.
import * as DM from '@radix-ui/react-dropdown-menu'
import type { ReactNode } from 'react'
import { AdminIcon } from './AdminIcon'
import { t } from '../../lib/clientI18n'

export default function AccountDropdown(props: { name: string; email: string; role: string; avatar: ReactNode; onLogout: () => void }) {
  return (
    <DM.Root defaultOpen>
      <DM.Trigger className="admin-avatar-button" aria-label={t('admin.account.menu')} data-testid="account-menu">
        {props.avatar}
      </DM.Trigger>
      <DM.Portal>
        <DM.Content className="admin-dropdown" align="end" sideOffset={8}>
          <DM.Label className="admin-dropdown-label">
            <strong>{props.name || props.email}</strong>
            <span>{props.email}</span>
            <span className="admin-chip">{props.role}</span>
          </DM.Label>
          <DM.Separator className="admin-dropdown-separator" />
          <DM.Item className="admin-dropdown-item" onSelect={props.onLogout}>
            <AdminIcon name="logout" size={18} />
            {t('admin.account.logout')}
          </DM.Item>
        </DM.Content>
      </DM.Portal>
    </DM.Root>
  )
}
