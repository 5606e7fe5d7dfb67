// Language switch (ENUS / ZHTW / ZHCN): remembered in a cookie the server reads, so pages render in it.
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { currentLang } from '../lib/clientI18n'

const LANGS = ['ENUS', 'ZHTW', 'ZHCN'] as const

function Select() {
  const t = useT()
  return (
    <label className="field" htmlFor="language">
      <span>{t('settings.language')}</span>
      <select
        id="language"
        defaultValue={currentLang()}
        onChange={(e) => {
          document.cookie = `lang=${e.target.value}; path=/; max-age=31536000; samesite=lax`
          location.reload()
        }}
      >
        {LANGS.map((l) => (
          <option key={l} value={l}>{t(`language.${l}`)}</option>
        ))}
      </select>
    </label>
  )
}

export default function LanguageSelect() {
  return (
    <ErrorBoundary>
      <Select />
    </ErrorBoundary>
  )
}
