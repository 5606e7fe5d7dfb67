// One icon of the admin console, rendered as inline SVG in Astro pages and islands alike.
import { adminIcons, type AdminIconName } from './adminIcons'

export function AdminIcon({ name, size = 20 }: { name: AdminIconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={adminIcons[name]} />
    </svg>
  )
}
