/** Password hashing: argon2id, m=19456 KiB, t=2, p=1 (OWASP's first recommendation). */
import { hash, verify } from '@node-rs/argon2'

/** @node-rs/argon2 defaults to argon2id; tests check the PHC string says so. */
export const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword (password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

let dummyHash: Promise<string> | null = null

/** A hash to verify against when there is no account, so unknown and known accounts take as long. */
function dummy (): Promise<string> {
  dummyHash ??= hash('no-such-account-dummy-password', ARGON2_OPTIONS)
  return dummyHash
}

/** Warms the dummy hash up at start-up so the first unknown-account login is not faster or slower. */
export async function prepareDummyHash (): Promise<void> {
  await dummy()
}

/** Verifies a password; with no stored hash it still does one argon2 verification and answers false. */
export async function verifyPassword (stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummy(), password).catch(() => false)
    return false
  }
  try {
    return await verify(stored, password)
  } catch {
    return false
  }
}
