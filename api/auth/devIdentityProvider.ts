// A built-in identity provider for development: with no Google client id, "Continue with Google"
// gets an ID token signed by this key, verified by the same code as Google's.
import { generateKeyPair, exportJWK, importJWK, SignJWT, createLocalJWKSet, type JWK } from 'jose'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createOnce } from '../config'
import type { IdTokenVerifier } from './idToken'

export const DEV_AUDIENCE = 'ideal-self-development'

export interface DevIdentityProvider {
  issuer: string
  jwks: { keys: JWK[] }
  verifier: IdTokenVerifier
  mint(claims: { email: string; name: string; picture?: string | null }): Promise<string>
}

export async function createDevIdentityProvider(opts: {
  production: boolean
  dataDir: string
  publicUrl: string
}): Promise<DevIdentityProvider> {
  if (opts.production) throw new Error('The development identity provider must not run in production')
  const file = join(opts.dataDir, 'dev-identity-key.json')
  let fresh: JWK | null = null
  if (!existsSync(file)) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true })
    fresh = { ...(await exportJWK(privateKey)), kid: `dev-${Date.now().toString(36)}`, alg: 'RS256', use: 'sig' }
  }
  // Instances sharing DATA_DIR share the key, so a token minted by one is accepted by every other.
  const privateJwk: JWK = JSON.parse(createOnce(opts.dataDir, 'dev-identity-key.json', () => JSON.stringify(fresh)))
  const { d, p, q, dp, dq, qi, ...publicJwk } = privateJwk
  const key = await importJWK(privateJwk, 'RS256')
  const issuer = `${opts.publicUrl}/api/v1/auth/dev`
  const jwks = { keys: [publicJwk] }
  return {
    issuer,
    jwks,
    verifier: { keys: createLocalJWKSet(jwks), issuers: [issuer], audience: DEV_AUDIENCE },
    async mint({ email, name, picture }) {
      const normalized = email.trim().toLowerCase()
      return new SignJWT({ email: normalized, email_verified: true, name, picture: picture ?? undefined })
        .setProtectedHeader({ alg: 'RS256', kid: publicJwk.kid })
        .setIssuer(issuer)
        .setAudience(DEV_AUDIENCE)
        .setSubject(`dev:${normalized}`)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(key)
    },
  }
}
