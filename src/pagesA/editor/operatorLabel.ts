/**
 * How the Operators tab names an account: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { OperatorUserView } from '~types/operators'

/** How an account is shown: nickname (user name), else its masked phone or e-mail. */
export const userLabel = (u: OperatorUserView) => {
  const handle = u.userName ?? u.phone ?? u.email ?? `#${u.id}`
  return u.nickname && u.nickname !== handle ? `${u.nickname} (${handle})` : handle
}
