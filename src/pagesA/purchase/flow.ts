/**
 * The order of a purchase on the page (PRODUCT.md, Money: nothing is charged before every check has
 * passed): 1. the server checks the purchase without buying (purchaseCheck: age gate, daily cap, case
 * and slots, price shown, acknowledgement) and answers the shortfall; a refusal ends here, with nothing
 * charged; 2. only then, and only if the wallet lacks money, a top-up of the shortfall (at least the
 * smallest top-up); 3. the purchase, under the page's idempotency key. A purchase that fails after a
 * top-up (a slot sold in between, ...) is told apart, so the page can say the money is in the wallet.
 */
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '~types/limits'
import type { PurchaseCheckRequest, PurchaseCheckResult, PurchaseRequest, PurchaseResult } from '~types/shop'
import { isRetryable } from '@/services/purchaseInFlight'

export { isRetryable }

export interface PurchaseFlowDeps {
  check: (order: PurchaseCheckRequest) => Promise<PurchaseCheckResult>
  /** Pays amountCents into the wallet; 'redirected' when the browser left for a payment page. */
  topUp: (amountCents: number) => Promise<'paid' | 'redirected'>
  /** toppedUpCents: what a top-up just brought for it (kept with the purchase while it is in flight). */
  purchase: (request: PurchaseRequest, toppedUpCents: number) => Promise<PurchaseResult>
}

export type PurchaseOutcome =
  | { kind: 'bought'; result: PurchaseResult; toppedUpCents: number }
  /** The check refused it: nothing was charged or topped up. */
  | { kind: 'refused'; error: unknown }
  /** The shortfall is more than one top-up may be: nothing was charged. */
  | { kind: 'topUpTooLarge'; shortfallCents: number }
  /** The top-up failed or was canceled (nothing was bought). */
  | { kind: 'topUpFailed'; error: unknown }
  /** The browser left for the payment page; the purchase is made when the user comes back. */
  | { kind: 'redirected' }
  /** The purchase failed; toppedUpCents > 0: after a top-up, which stays in the wallet. */
  | { kind: 'failed'; error: unknown; toppedUpCents: number; retryable: boolean }

/** What is topped up for a shortfall: the shortfall, but at least the smallest top-up. */
export const topUpAmount = (shortfallCents: number) => Math.max(shortfallCents, TOPUP_MIN_CENTS)

/** Check, then top up what is missing, then buy. */
export async function runPurchase (order: PurchaseCheckRequest, idempotencyKey: string, deps: PurchaseFlowDeps): Promise<PurchaseOutcome> {
  let plan: PurchaseCheckResult
  try {
    plan = await deps.check(order)
  } catch (error) {
    return { kind: 'refused', error }
  }
  let toppedUpCents = 0
  if (plan.shortfallCents > 0) {
    const amount = topUpAmount(plan.shortfallCents)
    if (amount > TOPUP_MAX_CENTS) return { kind: 'topUpTooLarge', shortfallCents: plan.shortfallCents }
    try {
      if (await deps.topUp(amount) === 'redirected') return { kind: 'redirected' }
    } catch (error) {
      return { kind: 'topUpFailed', error }
    }
    toppedUpCents = amount
  }
  return buyNow({ ...order, idempotencyKey }, deps, toppedUpCents)
}

/** The purchase alone (also the replay of a purchase whose answer was lost: same body, same key). */
export async function buyNow (request: PurchaseRequest, deps: Pick<PurchaseFlowDeps, 'purchase'>, toppedUpCents = 0): Promise<PurchaseOutcome> {
  try {
    return { kind: 'bought', result: await deps.purchase(request, toppedUpCents), toppedUpCents }
  } catch (error) {
    return { kind: 'failed', error, toppedUpCents, retryable: isRetryable(error) }
  }
}
