/** Session tokens: 256 random bits, base64url; only their SHA-256 is stored. */
import { createHash, randomBytes } from 'node:crypto'

export const TOKEN_BYTES = 32

export function newToken (): string {
  return randomBytes(TOKEN_BYTES).toString('base64url')
}

export function hashToken (token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The token of an `Authorization: Bearer <token>` header, if well formed. */
export function bearerToken (header: string | undefined): string | null {
  if (!header) return null
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header)
  return m ? m[1] : null
}
