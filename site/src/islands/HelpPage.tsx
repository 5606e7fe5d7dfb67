// Settings → Get help now: the local lines, and the country they are chosen for (automatic by default).
import { useMemo, useState } from 'react'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { HelpLinesList, useHelpLines } from '../components/safety/HelpLines'
import { api } from '../lib/api'
import { currentLang, t } from '../lib/clientI18n'

// The countries with lines of their own; "ZZ" (ISO's code for an unknown region) means somewhere else.
const COUNTRIES = ['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'TW', 'HK', 'CN', 'SG', 'MY', 'JP']
const LOCALES = { ENUS: 'en', ZHTW: 'zh-Hant-TW', ZHCN: 'zh-Hans-CN' } as const

function Page({ country: initial }: { country: string | null }) {
  const [country, setCountry] = useState(initial ?? '')
  const [saving, setSaving] = useState(false)
  const [version, setVersion] = useState(0)
  const help = useHelpLines(version)
  const names = useMemo(() => {
    const display = new Intl.DisplayNames([LOCALES[currentLang()]], { type: 'region' })
    return COUNTRIES.map((code) => ({ code, name: display.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name))
  }, [])

  async function choose(value: string) {
    setCountry(value)
    setSaving(true)
    try {
      await api('/self/profile', { method: 'PATCH', body: { crisisCountry: value || null }, purpose: t('help.saveCountry') })
      setVersion((v) => v + 1)
    } catch {
      setCountry(country)
    } finally {
      setSaving(false)
    }
  }

  return (
    <ErrorBoundary>
      <section className="card help-page" aria-labelledby="help-lines-heading">
        <h2 id="help-lines-heading" className="sr-only">{t('help.title')}</h2>
        <HelpLinesList {...help} />
      </section>
      <label className="field help-country">
        <span>{t('help.countryLabel')}</span>
        <select value={country} disabled={saving} onChange={(e) => void choose(e.target.value)}>
          <option value="">{t('help.countryAuto')}</option>
          {names.map(({ code, name }) => (
            <option key={code} value={code}>{name}</option>
          ))}
          <option value="ZZ">{t('help.countryOther')}</option>
        </select>
        <small className="muted">{t('help.countryHint')}</small>
      </label>
    </ErrorBoundary>
  )
}

export default function HelpPage(props: { country: string | null }) {
  return <Page {...props} />
}
