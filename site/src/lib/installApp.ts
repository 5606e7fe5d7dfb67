// The installable app on the page's side: registering the service worker (site/public/sw.js), and the browser's
// offer to install (beforeinstallprompt), which comes once, early, and is kept until the settings page uses it.

/** What Chromium hands over with beforeinstallprompt (not in the DOM typings). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<unknown>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

const OFFER = Symbol.for('ideal-self.install-offer')
/** Fired on window when the offer arrives or goes (used or the app installed). */
export const OFFER_CHANGED = 'ideal-self:install-offer'

type OfferHolder = { [OFFER]?: InstallPromptEvent | null }

export function installOffer(): InstallPromptEvent | null {
  return (window as OfferHolder)[OFFER] ?? null
}

function setOffer(offer: InstallPromptEvent | null) {
  ;(window as OfferHolder)[OFFER] = offer
  window.dispatchEvent(new Event(OFFER_CHANGED))
}

/** Shows the browser's install dialog; the offer is spent either way. Returns whether the person accepted. */
export async function install(): Promise<boolean> {
  const offer = installOffer()
  if (!offer) return false
  setOffer(null)
  await offer.prompt()
  return (await offer.userChoice).outcome === 'accepted'
}

export function registerWorker() {
  // The install entry in settings replaces the browser's own banner.
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    setOffer(event as InstallPromptEvent)
  })
  window.addEventListener('appinstalled', () => setOffer(null))
  if (!('serviceWorker' in navigator)) return
  // After the load, so the worker's first downloads never compete with the page's own.
  const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {})
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
