import { toast } from '../lib/toast'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Icon } from '../components/Icon'
import { useT } from '../lib/reactI18n'

function Copy({ email }: { email: string }) {
  const t = useT()
  async function copy() {
    try {
      await navigator.clipboard.writeText(email)
    } catch {
      // Older browsers and insecure origins: copy through a selected text field.
      const field = document.createElement('textarea')
      field.value = email
      document.body.append(field)
      field.select()
      document.execCommand('copy')
      field.remove()
    }
    toast.success(t('support.copied'), { duration: 2000 })
  }
  return (
    <div className="copy-email card">
      <a href={`mailto:${email}`}>{email}</a>
      <button type="button" className="icon-btn" aria-label={t('support.copy')} onClick={copy}>
        <Icon name="copy" />
      </button>
    </div>
  )
}

export default function CopyEmail(props: { email: string }) {
  return (
    <ErrorBoundary>
      <Copy {...props} />
    </ErrorBoundary>
  )
}
