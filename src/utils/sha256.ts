/** The proof of a case, checked on the device with the shared SHA-256 (types/crypto.ts). */
import { sha256Hex } from '~types/crypto'

export { sha256Hex, utf8 } from '~types/crypto'

/** The string a case commitment hashes: `${caseId}:${designIds}:${salt}` (PRODUCT.md). */
export const commitInput = (caseId: number, arrangement: number[], salt: string) =>
  `${caseId}:${arrangement.join(',')}:${salt}`

/** Recomputes a revealed case's hash; true when it matches the published commitment. */
export function verifyCommit (caseId: number, arrangement: number[], salt: string, commit: string): boolean {
  return sha256Hex(commitInput(caseId, arrangement, salt)) === commit.toLowerCase()
}
