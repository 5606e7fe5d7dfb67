// The translator of the request being rendered, for islands rendered on the server.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Translate } from './translate'
import type { Lang } from './i18n'

const store = new AsyncLocalStorage<{ t: Translate; lang: Lang }>()
;(globalThis as Record<symbol, unknown>)[Symbol.for('ideal-self.ssr-i18n')] = () => store.getStore()

export const withTranslator = <T,>(value: { t: Translate; lang: Lang }, fn: () => T): T => store.run(value, fn)
