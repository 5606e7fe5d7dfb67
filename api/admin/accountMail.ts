// The mail a person gets when staff change how they sign in, so a change they did not ask for never goes unseen.
import type { Mail } from '../mail/mailer'
import type { AuditAction } from './auditLog'

const closing = '\n\nIf you did not ask for this, reply to this mail or write to our support right away.'

/** The mail for a change, or null when the change is not one that affects signing in. */
export function accountChangeMail(action: AuditAction, person: { email: string; name: string | null }, extra: { newEmail?: string } = {}): Mail | null {
  const hi = `Hi ${person.name || 'there'},\n\n`
  switch (action) {
    case 'password-set':
      return {
        to: person.email,
        subject: 'A new password was set on your Ideal Self account',
        text: `${hi}A member of the Ideal Self staff set a new password on your account. You were signed out on your other devices.${closing}`,
      }
    case 'unlinked-oauth':
      return {
        to: person.email,
        subject: 'Your Ideal Self account was unlinked from Google',
        text: `${hi}A member of the Ideal Self staff unlinked your account from your Google account. Signing in with Google links it again.${closing}`,
      }
    case 'email-changed':
      return {
        to: person.email,
        subject: 'The email of your Ideal Self account was changed',
        text: `${hi}A member of the Ideal Self staff changed the email of your account to ${extra.newEmail}. This address no longer signs in.${closing}`,
      }
    default:
      return null
  }
}
