// An icon-only button: its label is its accessible name and shows as a tooltip on hover and focus.
import * as Tooltip from '@radix-ui/react-tooltip'
import type { ButtonHTMLAttributes } from 'react'
import { AdminIcon } from './AdminIcon'
import type { AdminIconName } from './adminIcons'

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { icon: AdminIconName; label: string }

export function IconButton({ icon, label, className, ...button }: Props) {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <button type="button" className={className ?? 'icon-btn'} aria-label={label} {...button}>
          <AdminIcon name={icon} size={18} />
        </button>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="admin-tooltip" sideOffset={4}>{label}</Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  )
}
