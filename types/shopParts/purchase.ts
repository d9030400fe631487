/**
 * Buying boxes: the purchase, its check before payment, its result and its later view.
 */
import { Type, type Static } from 'typebox'
import { CASE_SIZE_MAX, IDEMPOTENCY_KEY_PATTERN } from '../limits'
import { Cents, Id, Nullable, Obj, Timestamp } from '../schema'
import { SlotNumber } from './shared'
import { DesignInfo } from './catalogue'
import { WalletBalance } from './wallet'

// ---- purchase -------------------------------------------------------------------------------------

export const IdempotencyKey = Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, description: 'A replay with the same key and body answers the first result' })

/** What is bought: shared by casePurchase and purchaseCheck. */
const purchaseFields = {
  caseId: Id,
  /** The slots to buy (1-based); or wholeCase: true for every unsold slot. */
  slots: Type.Optional(Type.Array(SlotNumber, { minItems: 1, maxItems: CASE_SIZE_MAX })),
  wholeCase: Type.Optional(Type.Literal(true)),
  /** The buyer has seen the designs, odds, value range and rules. Must be true. */
  acknowledged: Type.Literal(true),
  /** The box price the buyer was shown; when given and the price has changed since: 409 with PriceChangedData. */
  priceCents: Type.Optional(Cents)
}
export const PurchaseRequest = Obj({ ...purchaseFields, idempotencyKey: IdempotencyKey })
export type PurchaseRequest = Static<typeof PurchaseRequest>

/** purchaseCheck: the body of casePurchase without the idempotency key (nothing is bought). */
export const PurchaseCheckRequest = Obj(purchaseFields)
export type PurchaseCheckRequest = Static<typeof PurchaseCheckRequest>

/**
 * What casePurchase would do now: the slots it would sell, the total, the credit and cash it would
 * spend (credit first), and the cash missing from the wallet (shortfallCents, 0 when the balances cover
 * it; a top-up of at least that lets the purchase go through). dailyLeftCents: what a minor may still
 * spend today (after this purchase), null without a cap.
 */
export const PurchaseCheckResult = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  slots: Type.Array(SlotNumber),
  priceCents: Cents,
  totalCents: Cents,
  creditCents: Cents,
  cashCents: Cents,
  shortfallCents: Cents,
  balance: WalletBalance,
  dailyLeftCents: Nullable(Cents)
})
export type PurchaseCheckResult = Static<typeof PurchaseCheckResult>

export const PrizeResult = Type.Object({
  prizeId: Type.Integer(),
  caseId: Type.Integer(),
  slot: SlotNumber,
  design: DesignInfo
})
export type PrizeResult = Static<typeof PrizeResult>

export const PurchaseResult = Type.Object({
  purchaseId: Type.Integer(),
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  totalCents: Cents,
  spentCreditCents: Cents,
  spentCashCents: Cents,
  prizes: Type.Array(PrizeResult),
  balance: WalletBalance,
  /** X-ray cards this purchase earned (a whole case earns one). */
  xrayCardsEarned: Type.Integer({ minimum: 0 })
})
export type PurchaseResult = Static<typeof PurchaseResult>

/**
 * One of the caller's purchases as its result pages show it (prize_show, open_chest_animation): what it
 * cost and the prizes it drew, whatever became of them since. Owner only: the prizes of a case still on
 * sale tell what is left in it (what an X-ray card sells), so a purchase is nobody else's to read.
 */
export const PurchaseView = Type.Object({
  purchaseId: Type.Integer(),
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  totalCents: Cents,
  spentCreditCents: Cents,
  spentCashCents: Cents,
  prizes: Type.Array(PrizeResult),
  createdAt: Timestamp
})
export type PurchaseView = Static<typeof PurchaseView>
export const PurchaseIdRequest = Obj({ purchaseId: Id })
export type PurchaseIdRequest = Static<typeof PurchaseIdRequest>
