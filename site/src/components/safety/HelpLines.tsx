// The person's local crisis lines in their language (GET /help-lines), chosen by their country setting, then the
// browser's time zone, then language. Used by the chat's "Get help now" dialog and the settings help page.
import { useEffect, useState } from 'react'
import { api } from '../../lib/api'
import { currentLang, t } from '../../lib/clientI18n'
import { useMarkdown } from '../../lib/markdownLater'
import { browserTimeZone } from '../../lib/timeZone'

export interface HelpLinesView {
  region: string
  country: string | null
  basis: 'setting' | 'timeZone' | 'language'
  lead: string
  lines: { region: string; text: string; source: string | null }[]
  invitation: string
}

export function useHelpLines(reloadKey: unknown = 0) {
  const [view, setView] = useState<HelpLinesView | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    setFailed(false)
    api<HelpLinesView>('/help-lines', { query: { timeZone: browserTimeZone(), language: currentLang() }, silent: true })
      .then((v) => live && setView(v))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [reloadKey])
  return { view, failed }
}

export function HelpLinesList({ view, failed }: { view: HelpLinesView | null; failed: boolean }) {
  // Even when the lines cannot be loaded, the person is pointed somewhere.
  const renderMarkdown = useMarkdown(!!view)
  if (failed) return <p className="help-lines-lead">{t('help.fallback')}</p>
  if (!view) return <p className="muted" role="status">{t('help.loading')}</p>
  return (
    <div className="help-lines">
      <p className="help-lines-lead">{view.lead}</p>
      <ul className="help-lines-list" data-region={view.region}>
        {view.lines.map((line) => (
          <li key={line.text} className="md" dangerouslySetInnerHTML={{ __html: renderMarkdown(line.text) }} />
        ))}
      </ul>
    </div>
  )
}
