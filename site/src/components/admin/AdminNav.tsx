// The admin side menu (spec §2). Rendered as static HTML in the sidebar and again inside the drawer island.
import type { AdminMenuItem } from '../../lib/admin/menu'
import { AdminIcon } from './AdminIcon'

export interface AdminNavProps {
  /** null when the role is unknown: the menu then says so instead of listing items. */
  items: (AdminMenuItem & { text: string; current: boolean })[] | null
  label: string
  unknownRoleText: string
}

export function AdminNav({ items, label, unknownRoleText }: AdminNavProps) {
  return (
    <nav className="admin-nav" aria-label={label}>
      {items ? (
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={item.current ? 'page' : undefined}>
                <AdminIcon name={item.icon} />
                <span>{item.text}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="admin-nav-unknown" role="alert">{unknownRoleText}</p>
      )}
    </nav>
  )
}
