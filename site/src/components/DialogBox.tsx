// Accessible modal dialog (Radix): focus is trapped inside and returns to the opener on close. Loaded by
// Dialog.tsx the first time a dialog opens.
import * as RD from '@radix-ui/react-dialog'
import type { DialogProps } from './Dialog'

export default function DialogBox(props: DialogProps) {
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

