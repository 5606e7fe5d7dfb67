// The translator of the request being rendered, for islands rendered on the server.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { TFunction } from 'i18next'
import type { Lang } from './i18n'

const store = new AsyncLocalStorage<{ t: TFunction; lang: Lang }>()
;(globalThis as Record<symbol, unknown>)[Symbol.for('ideal-self.ssr-i18n')] = () => store.getStore()

export const withTranslator = <T,>(value: { t: TFunction; lang: Lang }, fn: () => T): T => store.run(value, fn)
