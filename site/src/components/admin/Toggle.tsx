// A switch (Radix) for one on/off field of a row.
import * as Switch from '@radix-ui/react-switch'

export function Toggle(props: { checked: boolean; label: string; disabled?: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Switch.Root
      className="admin-switch"
      checked={props.checked}
      disabled={props.disabled}
      aria-label={props.label}
      onCheckedChange={props.onChange}
    >
      <Switch.Thumb className="admin-switch-thumb" />
    </Switch.Root>
  )
}
