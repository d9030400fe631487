/** One-time codes: 6 digits from a CSPRNG, stored as a hash bound to their purpose and target. */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto'

export const CODE_DIGITS = 6
export const CODE_TTL_MS = 5 * 60 * 1000
export const CODE_MAX_ATTEMPTS = 5

export function newCode (): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0')
}

export function hashCode (purpose: string, target: string, code: string): string {
  return createHash('sha256').update(`${purpose}\u0000${target}\u0000${code}`, 'utf8').digest('hex')
}

export function sameHash (a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}
