/**
 * Which way a re-authentication code goes by default: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { ReauthVia } from '~types/security'

/** The first way the account can receive a code (its phone, else its address), or null. */
export function defaultVia (phone: string | null, email: string | null): ReauthVia | null {
  return phone ? 'phone' : email ? 'email' : null
}
