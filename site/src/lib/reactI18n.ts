// Islands translate with the same function on the server and in the browser.
import { t } from './clientI18n'

export function useT() {
  return t
}
