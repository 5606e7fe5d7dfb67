// The one toast host of a page (spec §9: at most 5 shown, 2 s by default).
import { Toaster } from 'sonner'

export default function Toasts() {
  return <Toaster theme="dark" position="top-center" visibleToasts={5} duration={2000} richColors closeButton={false} />
}
