// Google sign-in for both logins (end user and admin): Google Identity Services when a client id is configured,
// otherwise the development identity provider, whose ID token goes through the very same verification.
import { api } from './api'

interface GoogleIdentity {
  accounts: { id: { initialize(o: object): void; renderButton(el: HTMLElement, o: object): void } }
}

/** Loads Google's script and renders its button into `el`; `onToken` gets each ID token. */
export function renderGoogleButton(
  el: HTMLElement,
  clientId: string,
  onToken: (idToken: string) => void,
  onError: (e: Error) => void,
  look: { theme: 'outline' | 'filled_black'; text: 'signin_with' | 'continue_with' } = { theme: 'outline', text: 'signin_with' },
) {
  const script = document.createElement('script')
  script.src = 'https://accounts.google.com/gsi/client'
  script.async = true
  script.onload = () => {
    const google = (window as unknown as { google: GoogleIdentity }).google
    google.accounts.id.initialize({ client_id: clientId, callback: (r: { credential: string }) => onToken(r.credential) })
    google.accounts.id.renderButton(el, { type: 'standard', size: 'large', shape: 'pill', width: 320, ...look })
  }
  script.onerror = () => onError(new Error('Google sign-in could not be loaded'))
  document.head.append(script)
}

export async function devIdToken(email: string, name: string): Promise<string> {
  const { idToken } = await api<{ idToken: string }>('/auth/dev/token', { body: { email, name }, silent: true })
  return idToken
}

export const exchangeIdToken = (idToken: string) =>
  api('/auth/login/oauth', { body: { idToken, strategy: 'google', isWeb: true }, silent: true })
