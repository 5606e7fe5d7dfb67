// A labelled input with its error and help text wired up for screen readers.
import type { InputHTMLAttributes, ReactNode } from 'react'

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string
  label: ReactNode
  error?: string | null
  help?: ReactNode
}

export function TextField({ id, label, error, help, 'aria-describedby': extra, ...input }: Props) {
  const describedBy = [error ? `${id}-error` : null, help ? `${id}-help` : null, extra].filter(Boolean).join(' ') || undefined
  return (
    <label className="field" htmlFor={id}>
      <span>{label}</span>
      <input id={id} type="text" {...input} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {error && <div id={`${id}-error`} className="field-error" role="alert">{error}</div>}
      {help && <div id={`${id}-help`} className="field-help">{help}</div>}
    </label>
  )
}
