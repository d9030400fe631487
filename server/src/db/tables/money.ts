/** Row types of money: wallets, the ledger, idempotency keys, top-up orders, withdrawals and their refunds (see ../schema.ts). */
import type { ColumnType, Generated } from 'kysely'
import type { Timestamp } from './columns'

export interface WalletsTable {
  user_id: number
  cash_cents: number
  credit_cents: number
  updated_at: Timestamp
}

export type LedgerKind = 'topup' | 'purchase' | 'refund' | 'recycle' | 'withdraw' | 'reward'
  | 'shipping_fee' | 'withdraw_payout' | 'withdraw_release' | 'prop_purchase'
export type LedgerAccount = 'user_cash' | 'user_credit' | 'house_sales' | 'payment_clearing' | 'house_credit'
  | 'house_shipping' | 'withdraw_pending' | 'house_props'

export interface LedgerTransactionsTable {
  id: Generated<number>
  kind: LedgerKind
  reference: string
  idempotency_key: string | null
  user_id: number | null
  created_at: Timestamp
}

/** One leg of a transaction; the legs of a transaction sum to zero. User accounts carry user_id. */
export interface LedgerLinesTable {
  id: Generated<number>
  tx_id: number
  account: LedgerAccount
  user_id: number | null
  amount_cents: number
}

export interface IdempotencyKeysTable {
  user_id: number
  key: string
  scope: string
  request_hash: string
  /** JSON of the first result; null while the first request is still running. */
  response: string | null
  created_at: Timestamp
}

export type OrderStatusRow = 'issued' | 'created' | 'paid' | 'canceled'
export type PayChannelRow = 'sandbox' | 'wechat_jsapi' | 'wechat_h5'

/** An order number (opId) is issued first (status issued), then the order is created with it. */
export interface OrdersTable {
  id: Generated<number>
  op_id: string
  user_id: number
  product_id: string | null
  amount_cents: number | null
  channel: PayChannelRow | null
  status: OrderStatusRow
  prepay_id: string | null
  prepay_url: string | null
  prepay_at: Timestamp | null
  transaction_id: string | null
  issued_at: Timestamp
  created_at: Timestamp | null
  paid_at: Timestamp | null
  updated_at: Timestamp
  /** What withdrawals hold or took back from this order (never above amount_cents). */
  refunded_cents: ColumnType<number, number | undefined, number>
}

export type WithdrawalStatusRow = 'requested' | 'approved' | 'paid' | 'rejected' | 'failed'
/** A shopper's withdrawal of cash: held at the request, then approved (refunded) or rejected by an operator. */
export interface WithdrawalsTable {
  id: Generated<number>
  user_id: number
  amount_cents: number
  status: WithdrawalStatusRow
  reason: string | null
  /** Cash given back: the whole amount when rejected, the failed refunds' otherwise. */
  returned_cents: ColumnType<number, number | undefined, number>
  hold_tx_id: number | null
  decision_tx_id: number | null
  decided_by: number | null
  created_at: Timestamp
  decided_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export type RefundStatusRow = 'pending' | 'processing' | 'success' | 'failed' | 'canceled'
/** The part of a withdrawal that goes back through one paid top-up order. */
export interface WithdrawalRefundsTable {
  id: Generated<number>
  withdrawal_id: number
  op_id: string
  channel: PayChannelRow
  amount_cents: number
  out_refund_no: string
  status: RefundStatusRow
  provider_refund_id: string | null
  failure: string | null
  settle_tx_id: number | null
  created_at: Timestamp
  sent_at: Timestamp | null
  settled_at: Timestamp | null
  updated_at: Timestamp
}
