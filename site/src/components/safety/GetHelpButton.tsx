// "Get help now", always in the chat header: the person's local lines in a dialog, with or without any message.
import { useRef, useState } from 'react'
import { Dialog } from '../Dialog'
import { Icon } from '../Icon'
import { t } from '../../lib/clientI18n'
import { HelpLinesList, useHelpLines } from './HelpLines'

function HelpDialogBody() {
  const help = useHelpLines()
  return (
    <>
      <HelpLinesList {...help} />
      <p className="muted help-lines-note">
        {t('help.notRight')} <a href="/app/settings/help">{t('help.changeCountry')}</a>
      </p>
    </>
  )
}

export function GetHelpButton() {
  const [open, setOpen] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  // Focus goes back to the control when the dialog closes, also after a tap (which may not have focused it).
  const change = (next: boolean) => {
    setOpen(next)
    if (!next) requestAnimationFrame(() => opener.current?.focus())
  }
  return (
    <>
      <button ref={opener} type="button" className="help-btn" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="get-help">
        <Icon name="lifebuoy" size={18} />
        <span>{t('help.button')}</span>
      </button>
      <Dialog
        open={open}
        onOpenChange={change}
        title={t('help.title')}
        wide
        actions={<button type="button" className="btn" onClick={() => change(false)}>{t('help.close')}</button>}
      >
        {open && <HelpDialogBody />}
      </Dialog>
    </>
  )
}
