// A modal alert built on <dialog> (native focus handling and Escape), usable from any script or island.
export function showAlert(title: string, message: string, okText = 'OK'): Promise<void> {
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog')
    dialog.className = 'app-dialog'
    dialog.setAttribute('role', 'alertdialog')
    const id = `alert-${Math.random().toString(36).slice(2)}`
    dialog.setAttribute('aria-labelledby', `${id}-title`)
    if (message) dialog.setAttribute('aria-describedby', `${id}-text`)
    const h = document.createElement('h2')
    h.className = 'dialog-title'
    h.id = `${id}-title`
    h.textContent = title
    const p = document.createElement('p')
    p.id = `${id}-text`
    p.style.whiteSpace = 'pre-wrap'
    p.textContent = message
    const actions = document.createElement('div')
    actions.className = 'dialog-actions'
    const ok = document.createElement('button')
    ok.className = 'btn'
    ok.type = 'button'
    ok.textContent = okText
    ok.addEventListener('click', () => dialog.close())
    actions.append(ok)
    dialog.append(...(message ? [h, p, actions] : [h, actions]))
    dialog.addEventListener('close', () => {
      dialog.remove()
      resolve()
    })
    // Inside an open modal (Radix traps focus and pointer events in its content), the alert must live in that
    // content to be reachable; it still shows on top, in the top layer.
    const openModals = document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')
    ;(openModals[openModals.length - 1] ?? document.body).append(dialog)
    dialog.showModal()
    ok.focus()
  })
}
