// Toasts without the toast library in a page's first load: the first toast asked for loads sonner and has the
// page's toast host (islands/Toasts.tsx) mount its Toaster; toasts asked for before then wait for it.
import type { ExternalToast } from 'sonner'

let wanted = false
const waiting: (() => void)[] = []
let mounted!: () => void
const hostMounted = new Promise<void>((resolve) => (mounted = resolve))

/** The toast host calls `mount` once when the first toast is wanted (now, if one already was). */
export function onToastWanted(mount: () => void) {
  if (wanted) mount()
  else waiting.push(mount)
}

/** The toast host says its Toaster is on the page. */
export function toastHostMounted() {
  mounted()
}

function show(kind: 'success' | 'error', message: string, options?: ExternalToast) {
  if (!wanted) {
    wanted = true
    waiting.splice(0).forEach((mount) => mount())
  }
  void Promise.all([import('sonner'), hostMounted]).then(([{ toast }]) => toast[kind](message, options))
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show('success', message, options),
  error: (message: string, options?: ExternalToast) => show('error', message, options),
}
