// The avatar of spec §3: the uploaded or Google picture, else an identicon from a hash of the lowercase email.
import { createHash } from 'node:crypto'
import { toSvg } from 'jdenticon'
import type { User } from '../../../api/users/users'

export function identiconSvg(email: string, size = 96): string {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
  return toSvg(hash, size, { backColor: '#1b2036' })
}

export function avatarOf(user: User): { url: string | null; identicon: string } {
  return { url: user.profileImage?.url ?? user.oauthProfileUrl ?? null, identicon: identiconSvg(user.email) }
}
