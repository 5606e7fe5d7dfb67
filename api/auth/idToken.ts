// Google ID-token verification (integrations §2). The development identity provider's tokens go
// through this very function, with its own key set.
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import { unauthorized } from '../http/errors'

export interface IdTokenVerifier {
  keys: JWTVerifyGetKey
  issuers: string[]
  audience: string
}

export interface IdentityClaims {
  subject: string
  email: string
  name: string
  picture: string | null
}

export const remoteKeys = (jwksUrl: string) => createRemoteJWKSet(new URL(jwksUrl))

export async function verifyIdToken(v: IdTokenVerifier, idToken: string): Promise<IdentityClaims> {
  let payload
  try {
    ;({ payload } = await jwtVerify(idToken, v.keys, {
      issuer: v.issuers,
      audience: v.audience,
      algorithms: ['RS256'],
      clockTolerance: 5,
      requiredClaims: ['sub', 'iat', 'exp'],
      maxTokenAge: '1d',
    }))
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'ERR_JWT_INVALID'
    throw unauthorized(`The sign-in token was refused (${code})`, 'InvalidIdToken')
  }
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : ''
  if (!email) throw unauthorized('The sign-in token carries no email', 'InvalidIdToken')
  if (payload.email_verified !== true) throw unauthorized('The email of this account is not verified', 'EmailNotVerified')
  return {
    subject: payload.sub!,
    email,
    name: typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : email.split('@')[0],
    picture: typeof payload.picture === 'string' ? payload.picture : null,
  }
}
