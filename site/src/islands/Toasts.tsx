// The one toast host of a page (spec §9: at most 5 shown, 2 s by default). A page that navigates away can
// leave a message for the next page in sessionStorage ("flashToast"). Toasts follow the admin console's
// light theme when it is on (a class on <html>). The toast library loads with the first toast (lib/toast.ts).
import { useEffect, useState, type ComponentType } from 'react'
import type { ToasterProps } from 'sonner'
import { currentTheme } from '../lib/admin/theme'
import { onToastWanted, toast, toastHostMounted } from '../lib/toast'

/**
 * Toasts rise from the bottom, clear of the title bar and page headings. A page with controls of its own at the
 * bottom (the chat's composer) passes how much room to leave below them.
 */
export default function Toasts({ bottomOffset }: { bottomOffset?: number }) {
  const [theme, setTheme] = useState<'light' | 'dark'>('dark')
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null)
  useEffect(() => {
    setTheme(currentTheme())
    const observer = new MutationObserver(() => setTheme(currentTheme()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
    onToastWanted(() => void import('sonner').then((sonner) => setToaster(() => sonner.Toaster)))
    const flash = sessionStorage.getItem('flashToast')
    if (flash) {
      sessionStorage.removeItem('flashToast')
      toast.success(flash, { duration: 3000 })
    }
    return () => observer.disconnect()
  }, [])
  useEffect(() => {
    if (Toaster) toastHostMounted()
  }, [Toaster])
  if (!Toaster) return null
  const offset = bottomOffset === undefined ? undefined : { bottom: bottomOffset }
  return <Toaster theme={theme} position="bottom-center" offset={offset} mobileOffset={offset} visibleToasts={5} duration={2000} richColors closeButton={false} />
}
