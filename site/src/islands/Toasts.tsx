// The one toast host of a page (spec §9: at most 5 shown, 2 s by default). A page that navigates away can
// leave a message for the next page in sessionStorage ("flashToast"). Toasts follow the admin console's
// light theme when it is on (a class on <html>).
import { useEffect, useState } from 'react'
import { Toaster, toast } from 'sonner'
import { currentTheme } from '../lib/admin/theme'

export default function Toasts() {
  const [theme, setTheme] = useState<'light' | 'dark'>('dark')
  useEffect(() => {
    setTheme(currentTheme())
    const observer = new MutationObserver(() => setTheme(currentTheme()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
    const flash = sessionStorage.getItem('flashToast')
    if (flash) {
      sessionStorage.removeItem('flashToast')
      toast.success(flash, { duration: 3000 })
    }
    return () => observer.disconnect()
  }, [])
  return <Toaster theme={theme} position="top-center" visibleToasts={5} duration={2000} richColors closeButton={false} />
}
