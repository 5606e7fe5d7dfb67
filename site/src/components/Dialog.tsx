// Accessible modal dialog (Radix): focus is trapped inside and returns to the opener on close.
import * as RD from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'

export function Dialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  actions?: ReactNode
  wide?: boolean
}) {
  return (
    <RD.Root open={props.open} onOpenChange={props.onOpenChange}>
      <RD.Portal>
        <RD.Overlay className="dialog-overlay" />
        <RD.Content className="dialog-content" style={props.wide ? { maxWidth: 'min(560px, calc(100vw - 32px))' } : undefined} aria-describedby={props.description ? undefined : undefined}>
          <RD.Title className="dialog-title">{props.title}</RD.Title>
          {props.description ? <RD.Description className="muted">{props.description}</RD.Description> : <RD.Description className="sr-only">{props.title}</RD.Description>}
          {props.children}
          {props.actions ? <div className="dialog-actions">{props.actions}</div> : null}
        </RD.Content>
      </RD.Portal>
    </RD.Root>
  )
}

export function ConfirmDialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  confirmText: ReactNode
  cancelText: ReactNode
  onConfirm: () => void
  danger?: boolean
  busy?: boolean
  children?: ReactNode
  confirmDisabled?: boolean
}) {
  return (
    <Dialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={props.title}
      description={props.description}
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={() => props.onOpenChange(false)}>
            {props.cancelText}
          </button>
          <button type="button" className={props.danger ? 'btn btn-danger' : 'btn'} disabled={props.busy || props.confirmDisabled} onClick={props.onConfirm}>
            {props.confirmText}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  )
}
