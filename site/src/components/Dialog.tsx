// Accessible modal dialogs. The dialog library (Radix, in DialogBox.tsx) is not part of a page's first load: it
// loads the first time a dialog of the page opens, and stays for the next time.
import { lazy, Suspense, useState, type ReactNode } from 'react'

const DialogBox = lazy(() => import('./DialogBox'))

export interface DialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  actions?: ReactNode
  wide?: boolean
}

export function Dialog(props: DialogProps) {
  const [used, setUsed] = useState(props.open)
  if (props.open && !used) setUsed(true)
  if (!used) return null
  return (
    <Suspense fallback={null}>
      <DialogBox {...props} />
    </Suspense>
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
