// A tab list (WAI-ARIA tabs pattern: arrow keys move between tabs) controlling one panel.
import { useRef, type ReactNode } from 'react'

export interface TabItem<T extends string> {
  id: T
  label: ReactNode
  /** A small marker after the label, e.g. "changed". */
  marker?: ReactNode
}

export function Tabs<T extends string>(props: { idPrefix: string; label: string; tabs: TabItem<T>[]; value: T; onChange: (id: T) => void }) {
  const list = useRef<HTMLDivElement>(null)
  function onKeyDown(e: React.KeyboardEvent) {
    const i = props.tabs.findIndex((tab) => tab.id === props.value)
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? props.tabs.length - 1 : null
    if (next === null) return
    e.preventDefault()
    const tab = props.tabs[(next + props.tabs.length) % props.tabs.length]
    props.onChange(tab.id)
    list.current?.querySelector<HTMLElement>(`#${props.idPrefix}-tab-${tab.id}`)?.focus()
  }
  return (
    <div ref={list} className="admin-tabs" role="tablist" aria-label={props.label} onKeyDown={onKeyDown}>
      {props.tabs.map((tab) => (
        <button
          key={tab.id}
          id={`${props.idPrefix}-tab-${tab.id}`}
          type="button"
          role="tab"
          aria-selected={tab.id === props.value}
          aria-controls={`${props.idPrefix}-panel`}
          tabIndex={tab.id === props.value ? 0 : -1}
          onClick={() => props.onChange(tab.id)}
        >
          {tab.label}
          {tab.marker}
        </button>
      ))}
    </div>
  )
}

export const tabPanelProps = (idPrefix: string, value: string) => ({
  id: `${idPrefix}-panel`,
  role: 'tabpanel',
  'aria-labelledby': `${idPrefix}-tab-${value}`,
})
