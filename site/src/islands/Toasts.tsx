// The one toast host of a page (spec §9: at most 5 shown, 2 s by default). A page that navigates away can
// leave a message for the next page in sessionStorage ("flashToast").
import { useEffect } from 'react'
import { Toaster, toast } from 'sonner'

export default function Toasts() {
  useEffect(() => {
    const flash = sessionStorage.getItem('flashToast')
    if (flash) {
      sessionStorage.removeItem('flashToast')
      toast.success(flash, { duration: 3000 })
    }
  }, [])
  return <Toaster theme="dark" position="top-center" visibleToasts={5} duration={2000} richColors closeButton={false} />
}
