/**
 * The wallet: balances and the ledger.
 */
import { Type, type Static } from 'typebox'
import { Cents, PageQuery, PageResult, SignedCents, StringEnum, Timestamp } from '../schema'

// ---- wallet ---------------------------------------------------------------------------------------

export const WalletBalance = Type.Object({ cashCents: Cents, creditCents: Cents })
export type WalletBalance = Static<typeof WalletBalance>

export const LedgerKind = StringEnum(['topup', 'purchase', 'refund', 'recycle', 'withdraw', 'reward', 'shipping_fee', 'withdraw_payout', 'withdraw_release', 'prop_purchase'] as const)
export type LedgerKind = Static<typeof LedgerKind>

export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  /** Lines of one transaction share it. */
  txId: Type.Integer(),
  kind: LedgerKind,
  account: StringEnum(['cash', 'credit'] as const),
  /** Signed, as the user sees it: + in, - out. */
  amountCents: SignedCents,
  createdAt: Timestamp,
  /** e.g. the order number or the case and slots. */
  reference: Type.String()
})
export type LedgerEntry = Static<typeof LedgerEntry>

export const LedgerRequest = PageQuery
export type LedgerRequest = PageQuery
export const LedgerResponse = PageResult(LedgerEntry)
export type LedgerResponse = Static<typeof LedgerResponse>
