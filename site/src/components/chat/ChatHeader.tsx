// The chat room's top bar: back, title, "Get help now", the relationship editor, the staff's Character Dev Tool
// and settings.
import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react'
import { Icon } from '../Icon'
import { GetHelpButton } from '../safety/GetHelpButton'
import { t } from '../../lib/clientI18n'

// Staff only: not part of everyone's first load.
const CharacterDevTool = lazy(() => import('./CharacterDevTool').then((m) => ({ default: m.CharacterDevTool })))

interface Props {
  characterId: string
  relationsReady: boolean
  roomPath: string
  /** Set for ADMIN and DEVELOPER. */
  devTool: ComponentProps<typeof CharacterDevTool> | null
}

export function ChatHeader(props: Props) {
  // The dev tool loads after the room is interactive (the server renders the bar without it).
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return (
    <header className="topbar chat-bar">
      <div className="side">
        <a className="icon-btn" href="/app/select-character" aria-label={t('chat.back')} data-testid="back"><Icon name="back" /></a>
      </div>
      <h1 className="title">{t('chat.title')}</h1>
      <div className="side end">
        <GetHelpButton />
        {props.relationsReady && (
          <a className="icon-btn" href={`/app/characters/${props.characterId}/relations/edit?from=${encodeURIComponent(props.roomPath)}`} aria-label={t('chat.relations')}>
            <Icon name="people" />
          </a>
        )}
        {props.devTool && hydrated && (
          <Suspense fallback={null}>
            <CharacterDevTool {...props.devTool} />
          </Suspense>
        )}
        <a className="icon-btn" href={`/app/settings?from=${encodeURIComponent(props.roomPath)}`} aria-label={t('common.settings')}><Icon name="gear" /></a>
      </div>
    </header>
  )
}
